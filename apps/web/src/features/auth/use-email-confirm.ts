import { useEffect, useRef, useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { useSession } from '../../lib/session.tsx';
import { writeIdentityToken } from '../../lib/storage.ts';
import { EmailConfirmDocument } from './documents.ts';
import { IDENTITY_ISSUER } from './redirects.ts';

export type ConfirmState =
  | { status: 'pending' }
  | { status: 'failed' }
  /** `secondFactor`: signed in only up to the second factor (an account with one active). */
  | { status: 'confirmed'; secondFactor: boolean };

/** Confirms the emailed link's token once (a link is single use) and signs in (SPEC §4). */
export function useEmailConfirm(token: string | null): ConfirmState {
  const { mutate } = useCall();
  const session = useSession();
  const [state, setState] = useState<ConfirmState>(token ? { status: 'pending' } : { status: 'failed' });
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    mutate(EmailConfirmDocument, { token }).then(
      async ({ authEmailConfirm: result }) => {
        if (result.issuer === IDENTITY_ISSUER) {
          writeIdentityToken(result.token);
          setState({ status: 'confirmed', secondFactor: true });
          return;
        }
        await session.authenticate(result.token);
        setState({ status: 'confirmed', secondFactor: false });
      },
      () => setState({ status: 'failed' }),
    );
  }, [token, mutate, session]);

  return state;
}
