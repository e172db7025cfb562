import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { ServerRedirect } from '../../components/server-redirect.tsx';
import { FormAlert } from '../../features/auth/auth-card.tsx';
import { legacyRegister } from '../../features/oauth/consent-api.ts';
import { ConsentScreen, interactionUid, signinFor } from '../../features/oauth/consent-screen.tsx';
import { useSession } from '../../lib/session.tsx';

/**
 * SPEC §2 consent, legacy variant (/signin/partner): signed in, 'Grant access'; signed out, Login
 * or 'Create an account' as the email of the query. The one-time token it answers goes to /signin
 * through the address hash (`#access_token=`), where the server asks for the emailed confirmation
 * first (its link signs in); a registered email is answered the same (server: legacy-register.ts).
 */
export function Component() {
  const { pathname, search } = useLocation();
  const { isAuthenticated, token } = useSession();
  const query = new URLSearchParams(search);
  const uid = interactionUid(search);
  if (!query.size) return <Navigate to="/" replace />;
  if (!uid) {
    const params = new URLSearchParams(query);
    const email = params.get('email');
    if (email && !params.has('login_hint')) params.set('login_hint', email);
    return <ServerRedirect to={`/oidc/auth?${params}`} />;
  }
  const signin = signinFor(pathname, search);
  return (
    <ConsentScreen
      uid={uid}
      search={search}
      sessionToken={isAuthenticated ? token : null}
      signedOut={(details) => (
        <SignedOutChoices email={details.email ?? query.get('email')} query={query} signin={signin} />
      )}
    />
  );
}

function SignedOutChoices({ email, query, signin }: { email: string | null; query: URLSearchParams; signin: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const oneTime = await legacyRegister(query);
      await navigate(`${signin}#${new URLSearchParams({ access_token: oneTime })}`);
    } catch (failure) {
      setError((failure as Error).message || 'Error');
      setBusy(false);
    }
  }

  return (
    <>
      {error && <FormAlert>{error}</FormAlert>}
      <p>Sign in to choose what this application may do with your connected accounts.</p>
      <Link to={signin} className="btn btn-primary w-100 mb-2">
        Login
      </Link>
      {email && (
        <button type="button" className="btn btn-outline-primary w-100" disabled={busy} onClick={() => void create()}>
          Create an account as {email}
        </button>
      )}
    </>
  );
}
