import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../lib/session.tsx';

/**
 * SPEC §2 Logout: end the session on the server, clear local authentication, go to /.
 * The server schema has no `signout` mutation yet: once it does, call it here (ignoring its
 * failure) before clearing the local session.
 */
export function useSignOut(): () => Promise<void> {
  const session = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    session.signOut();
    await navigate('/', { replace: true });
  }, [session, navigate]);
}
