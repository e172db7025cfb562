import { Navigate, useLocation } from 'react-router';
import { ServerRedirect } from '../../components/server-redirect.tsx';
import { ConsentScreen, interactionUid, signinFor } from '../../features/oauth/consent-screen.tsx';
import { useSession } from '../../lib/session.tsx';

/**
 * SPEC §2 consent, app variant (/signin/oauth): the application's name, what it may do and
 * 'Grant access'. Signed out: to /signin with a redirect back here; an empty query: to /. A
 * query without the provider's `uid` (a link made for the original product) is an authorization
 * request: it goes through the provider (/oidc/auth) first.
 */
export function Component() {
  const { pathname, search } = useLocation();
  const { isAuthenticated, token } = useSession();
  const uid = interactionUid(search);
  if (!new URLSearchParams(search).size) return <Navigate to="/" replace />;
  if (!uid) return <ServerRedirect to={`/oidc/auth${search}`} />;
  if (!isAuthenticated || !token) return <Navigate to={signinFor(pathname, search)} replace />;
  return <ConsentScreen uid={uid} search={search} sessionToken={token} />;
}
