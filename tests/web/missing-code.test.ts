// Which failures mean "this screen's code never reached the device" (issue 23, part 3): those get
// "This part of Fieldcheck isn't on this device yet." and the advice to reconnect; anything else is
// the catalogue's internal error. The messages are what each browser and Vite's preload helper
// throw; the e2e test (offline-dead-ends) sees Chromium's for a screen with a stylesheet.
import { describe, expect, it } from 'vitest';
import { isMissingCode } from '../../web/src/app/app-error';

describe('a screen whose code could not be fetched', () => {
  it.each([
    ['Chromium', 'Failed to fetch dynamically imported module: http://localhost:5173/assets/members-abc.js'],
    ['Firefox', 'error loading dynamically imported module: http://localhost:5173/assets/members-abc.js'],
    ['Safari', 'Importing a module script failed.'],
    ["Vite's stylesheet preload", 'Unable to preload CSS for http://localhost:5173/assets/members-abc.css'],
  ])('is recognised as missing code in %s', (_browser, message) => {
    expect(isMissingCode(new Error(message))).toBe(true);
  });

  it('is not confused with a screen that broke while rendering', () => {
    expect(isMissingCode(new TypeError("Cannot read properties of undefined (reading 'name')"))).toBe(false);
    expect(isMissingCode('Failed to fetch dynamically imported module')).toBe(false);
  });
});
