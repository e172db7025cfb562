import type { Provider } from '@router/orders';
import { useEffect, useRef, useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { type AuthorizationWindow, openAuthorizationWindow } from './authorization-window.ts';
import { connectErrorMessage } from './connect-error.ts';
import { ConnectorActivateDocument, ConnectorCreateDocument } from './documents.ts';

export type ConnectPhase = 'idle' | 'connecting' | 'authorizing';

/**
 * SPEC §4 Connect flow. Credentials: connectorCreate, then connectorActivate with the values in
 * the order the creation result lists them. 'open': connectorCreate gives the authorization
 * URL for a popup; `onDone` runs when it closes (the callback screen activated the connector).
 */
export function useConnect(provider: Provider, onDone: () => void) {
  const { mutate } = useCall();
  const [phase, setPhase] = useState<ConnectPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const popup = useRef<AuthorizationWindow | null>(null);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  }, [onDone]);

  // Leaving the screen stops the polling; the popup stays for the user to finish or close.
  useEffect(() => () => popup.current?.cancel(), []);

  async function connectWithCredentials(values: Record<string, string>): Promise<void> {
    setError(null);
    setPhase('connecting');
    try {
      const { connectorCreate } = await mutate(ConnectorCreateDocument, { providerName: provider.name });
      const names = connectorCreate.credentials.length ? connectorCreate.credentials : Object.keys(values);
      await mutate(ConnectorActivateDocument, {
        providerName: provider.name,
        credentials: names.map((name) => values[name] ?? ''),
      });
      setPhase('idle');
      done.current();
    } catch (failure) {
      setError(connectErrorMessage(failure));
      setPhase('idle');
    }
  }

  async function authorize(): Promise<void> {
    setError(null);
    setPhase('connecting');
    const authWindow = openAuthorizationWindow();
    popup.current = authWindow;
    try {
      const { connectorCreate } = await mutate(ConnectorCreateDocument, { providerName: provider.name });
      if (!connectorCreate.requestUrl) throw new Error('');
      authWindow.navigate(connectorCreate.requestUrl);
      setPhase('authorizing');
      await authWindow.closed;
      popup.current = null;
      setPhase('idle');
      done.current();
    } catch (failure) {
      authWindow.cancel();
      popup.current = null;
      setError(connectErrorMessage(failure));
      setPhase('idle');
    }
  }

  return { phase, error, connectWithCredentials, authorize };
}
