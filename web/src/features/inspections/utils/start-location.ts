import type { StartLocation } from '../api/start-inspection';

// Long enough for a phone's first fix outdoors; the start goes ahead without a location after it.
const LOCATION_TIMEOUT_MS = 15_000;

export type LocationOutcome = { location: StartLocation; problem: null } | { location: null; problem: string };

/** Asks the browser where the device is; refusal, no fix in time or no support all resolve without a location. */
export function locateForStart(): Promise<LocationOutcome> {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
    return Promise.resolve({ location: null, problem: "This browser can't share its location." });
  }
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) =>
        resolve({
          location: {
            latitude: position.coords.latitude,
            longitude: position.coords.longitude,
            accuracy_m: Math.round(position.coords.accuracy),
          },
          problem: null,
        }),
      (failure) =>
        resolve({
          location: null,
          problem: failure.code === failure.PERMISSION_DENIED ? 'Location access was refused.' : "Your location couldn't be found in time.",
        }),
      { enableHighAccuracy: true, timeout: LOCATION_TIMEOUT_MS, maximumAge: 60_000 },
    );
  });
}
