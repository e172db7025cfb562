import { isRouteErrorResponse, useRouteError } from 'react-router';

export function errorText(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
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
      <a className="btn btn-outline-primary" href="/me">
        Back to the dashboard
      </a>
    </main>
  );
}
