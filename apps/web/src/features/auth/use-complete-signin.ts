import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { fromOf } from '../../lib/access.ts';
import { useSession } from '../../lib/session.tsx';
import { writeIdentityToken } from '../../lib/storage.ts';
import { IDENTITY_ISSUER, isServerPath, MULTIFACTOR_PATH, signinTarget } from './redirects.ts';

export interface SigninOutcome {
  token: string;
  issuer: string;
  email?: string | null;
}

/**
 * SPEC §4 Sign-in: an identity-issuer result waits for the second factor (token kept, on to
 * /signin/multifactor with the query string and `from`); any other result authenticates and
 * leaves for the sign-in target. The target is handed over as router state `from`, so a guest
 * guard sending the now signed-in user on takes them there rather than to /me. `target`, when
 * given, replaces the sign-in target (a social sign-up with a price goes to Account & Billing).
 */
export function useCompleteSignin(): (outcome: SigninOutcome, target?: string) => Promise<void> {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    async (outcome, given) => {
      if (outcome.issuer === IDENTITY_ISSUER) {
        writeIdentityToken(outcome.token);
        await navigate(`${MULTIFACTOR_PATH}${location.search}`, { state: location.state });
        return;
      }
      const target = given ?? signinTarget(location.search, fromOf(location.state), outcome.email);
      if (isServerPath(target)) {
        await session.authenticate(outcome.token);
        writeIdentityToken(null);
        window.location.assign(target);
        return;
      }
      await navigate(
        { pathname: location.pathname, search: location.search },
        { replace: true, state: { from: target } },
      );
      await session.authenticate(outcome.token);
      writeIdentityToken(null);
      await navigate(target, { replace: true });
    },
    [session, navigate, location],
  );
}
