import type { ConsentDetails } from '@router/shared';
import { useEffect, useState } from 'react';
import { fetchConsentDetails } from './consent-api.ts';

export type ConsentState =
  | { status: 'loading' }
  | { status: 'ready'; details: ConsentDetails }
  | { status: 'failed'; message: string };

/** The interaction's application and scopes, asked again when the session token changes. */
export function useConsentDetails(uid: string, sessionToken: string | null): ConsentState {
  const [state, setState] = useState<ConsentState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    fetchConsentDetails(uid, sessionToken).then(
      (details) => live && setState({ status: 'ready', details }),
      (error: unknown) => live && setState({ status: 'failed', message: (error as Error).message }),
    );
    return () => {
      live = false;
    };
  }, [uid, sessionToken]);
  return state;
}
