import { useEffect } from 'react';

/** Leaves the app for a server path (a full page load), replacing this history entry. */
export function ServerRedirect({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return null;
}
