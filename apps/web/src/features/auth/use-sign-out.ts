import { useCallback } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { useCall } from '../../lib/call.ts';
import { useSession } from '../../lib/session.tsx';
import { SignoutDocument } from './documents.ts';

/**
 * SPEC §2 Logout: end the session on the server, clear local authentication, go to /.
 * A failed `signout` (offline, already expired) still signs out locally: the person asked to.
 */
export function useSignOut(): () => Promise<void> {
  const session = useSession();
  const navigate = useNavigate();
  const { mutate } = useCall();
  return useCallback(async () => {
    await mutate(SignoutDocument, {}).catch((error: unknown) => console.debug('signout failed', error));
    // The /me guard reacts to the signed-out session (to /signin) before we go on: going to /
    // after it makes / (the landing page) where Logout ends, whatever loads first.
    flushSync(() => session.signOut());
    await navigate('/', { replace: true });
  }, [session, navigate, mutate]);
}
