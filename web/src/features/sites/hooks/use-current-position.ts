import { useState } from 'react';

export interface Position {
  latitude: number;
  longitude: number;
}

/** Asks the browser for the device's position once, with wording for each way that can fail. */
export function useCurrentPosition() {
  const [locating, setLocating] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const supported = typeof navigator !== 'undefined' && 'geolocation' in navigator;

  function locate(onPosition: (position: Position) => void) {
    if (!supported) {
      setError("This browser can't share your location.");
      return;
    }
    setLocating(true);
    setError(undefined);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        onPosition({ latitude: position.coords.latitude, longitude: position.coords.longitude });
      },
      (failure) => {
        setLocating(false);
        setError(
          failure.code === failure.PERMISSION_DENIED
            ? 'Allow location access for this site in your browser, then try again.'
            : "We couldn't find your location. Check that location services are on and try again.",
        );
      },
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  }

  return { locate, locating, error, supported };
}
