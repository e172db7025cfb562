import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * A screen's code could not be downloaded (Chromium, Firefox and Safari wordings): no connection,
 * or the app was updated on the server meanwhile and the old file is gone. Loading the page again
 * fetches the current app.
 */
const CHUNK_FAILED =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export const SCREEN_NOT_LOADED =
  'This screen could not be loaded: the server could not be reached, or the app was updated meanwhile. Reload the page to try again.';

export const isChunkLoadFailure = (error: unknown): boolean =>
  error instanceof Error && CHUNK_FAILED.test(error.message);

export function errorText(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (isChunkLoadFailure(error)) return SCREEN_NOT_LOADED;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The router's error screen, with react-router's default wording (SPEC §2). */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className="container py-5" role="alert">
      <h1 className="h3">Unexpected Application Error!</h1>
      <p className="text-danger font-monospace">{errorText(error)}</p>
      <div className="d-flex flex-wrap gap-2">
        {isChunkLoadFailure(error) && (
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        )}
        <a className="btn btn-outline-primary" href="/me">
          Back to the dashboard
        </a>
      </div>
    </main>
  );
}
