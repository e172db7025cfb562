// Where a sign-in leads (SPEC §4 Sign-in): the `redirect` query parameter, else the recall
// screen when the result has an email, else the originating page (`from`), else /me.
import { HOME } from '../../lib/access.ts';

export const MULTIFACTOR_PATH = '/signin/multifactor';
export const RECALL_PATH = '/signin/multifactor/recall';
/** A password sign-in of a user with an active second factor answers this issuer. */
export const IDENTITY_ISSUER = 'identity';

/**
 * A same-origin path, or null: `redirect` and `from` come from the address bar, so an absolute
 * URL elsewhere (or `//host`) is refused rather than followed (open redirect).
 */
export function safePath(raw: string | null | undefined, origin = window.location.origin): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin || !raw.match(/^(\/(?!\/)|https?:)/)) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** Server paths (/api/…) need a full page load; app paths go through the router. */
export const isServerPath = (path: string): boolean => /^\/(api|hook|graphql)(\/|$)/.test(path);

export function signinTarget(search: string, from: string | null, email?: string | null): string {
  const redirect = safePath(new URLSearchParams(search).get('redirect'));
  if (redirect) return redirect;
  const origin = safePath(from);
  if (email) return origin ? `${RECALL_PATH}?${new URLSearchParams({ from: origin })}` : RECALL_PATH;
  return origin ?? HOME;
}
