import { errorCatalogue } from '@schemas/errors';
import { Component, type ReactNode } from 'react';
import { useRouteError } from 'react-router-dom';
import { useOnline } from '../lib/use-online';

/**
 * A screen's code that was never fetched cannot load without a network (a first visit gone offline
 * before the service worker had it all). Browsers word the failure differently: Chromium "Failed to
 * fetch dynamically imported module", Firefox "error loading dynamically imported module", Safari
 * "Importing a module script failed". A screen with its own stylesheet fails earlier, in Vite's
 * preload of that stylesheet: "Unable to preload CSS for <url>" (the members screen, whose access
 * editor brings the site groups' styles).
 */
export function isMissingCode(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|importing a module script failed|failed to fetch|unable to preload css/i.test(error.message);
}

export const missingCodeTitle = "This part of Fieldcheck isn't on this device yet.";
export const missingCodeAdvice = 'Connect to the internet, then reload. Answers saved on this device stay there until they are sent.';

/**
 * What replaces a screen that failed to render, so no error ever leaves a blank page: what happened
 * in the catalogue's words (or, offline, that the screen's code is not on the device), and the ways
 * out: reload, or go to the start page. Plain links and full reloads, since the app's own state is
 * what failed.
 */
export function AppError({ error }: { error: unknown }) {
  const missing = isMissingCode(error);
  const offline = !useOnline();
  return (
    <main className="app-main app-error" id="main">
      <div className="stack" role="alert">
        <h1>{missing ? missingCodeTitle : errorCatalogue.internal_error.title}</h1>
        {missing ? <p>{missingCodeAdvice}</p> : null}
        {!missing && offline ? <p>You're offline: reload once you're connected again.</p> : null}
      </div>
      <div className="button-row">
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <a className="button button-secondary" href="/">
          Go to the start page
        </a>
      </div>
    </main>
  );
}

/** The router's error element: a route that throws while rendering (or loading its code) shows AppError in its place. */
export function RouteError() {
  return <AppError error={useRouteError()} />;
}

/** The last line of defence, around everything the router does not wrap (the device's cache, the router itself). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: unknown; failed: boolean }> {
  state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  render() {
    return this.state.failed ? <AppError error={this.state.error} /> : this.props.children;
  }
}

/**
 * Around what the app can do without (the new-version prompt): if its code cannot load (offline
 * before it was ever fetched), it is left out, rather than taking the page down with it.
 */
export class OptionalPart extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
