import { useCallback } from 'react';
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
    session.signOut();
    await navigate('/', { replace: true });
  }, [session, navigate, mutate]);
}
