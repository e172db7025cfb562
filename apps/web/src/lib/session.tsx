import type { Client, CombinedError } from '@urql/core';
import { createContext, type ReactNode, use, useMemo, useSyncExternalStore } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { AdminProxyEndDocument } from '../features/admin/documents.ts';
import { UserDocument } from '../features/user/documents.ts';
import { unwrap } from './call.ts';
import { createAppClient } from './client.ts';
import { errorMessage } from './error-message.ts';
import {
  createSessionStore,
  ServerUnreachableError,
  type SessionSnapshot,
  type SessionStore,
} from './session-store.ts';

export type { SessionSnapshot, SessionUser } from './session-store.ts';

export type AppSessionStore = SessionStore<Client>;

const serverUnreachable = (error: CombinedError): boolean =>
  error.networkError !== undefined && error.graphQLErrors.length === 0;

/** GraphQL codes of a server that works but cannot answer now; not a verdict on the token. */
const LATER = new Set(['SERVICE_UNAVAILABLE', 'RATE_LIMITED']);

const comeBackLater = (error: CombinedError): boolean =>
  error.graphQLErrors.length > 0 && error.graphQLErrors.every((one) => LATER.has(String(one.extensions?.code)));

/** The session store wired to the app's GraphQL client (and the client's error handling to it). */
export function createAppSession(options: { fetch?: typeof fetch } = {}): AppSessionStore {
  const store: AppSessionStore = createSessionStore<Client>({
    createClient: () => {
      const client = createAppClient({
        // Only the current identity's answers count: a late UNAUTHENTICATED to a request of the
        // previous one (signed out since, in this tab or another) would sign out whoever signed
        // in meanwhile and delete their token.
        onUnauthenticated: () => {
          if (store.getClient() === client) store.handleUnauthenticated();
        },
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      return client;
    },
    fetchUser: async (client) => {
      const result = await client.query(UserDocument, {}, { requestPolicy: 'network-only' }).toPromise();
      const error = result.error;
      // No answer, or the server saying to come back later (its database restarting, a rate
      // limit): the token may be good, so the session is kept and the user asked again.
      if (error && (serverUnreachable(error) || comeBackLater(error))) {
        throw new ServerUnreachableError(errorMessage(error));
      }
      return (await unwrap(Promise.resolve(result))).user;
    },
    replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
    onProxyEnded: (client, email) => {
      void unwrap(client.mutation(AdminProxyEndDocument, { email }).toPromise()).catch((error: unknown) =>
        console.warn('Cannot record the end of proxy mode', error),
      );
    },
  });
  return store;
}

const SessionContext = createContext<AppSessionStore | null>(null);

/** Provides the session and the urql client of the current identity. */
export function SessionProvider({ store, children }: { store: AppSessionStore; children: ReactNode }) {
  const client = useSyncExternalStore(store.subscribe, store.getClient);
  return (
    <SessionContext value={store}>
      <UrqlProvider value={client}>{children}</UrqlProvider>
    </SessionContext>
  );
}

export interface Session extends SessionSnapshot {
  authenticate(token: string): Promise<void>;
  signOut(): void;
  reload(): Promise<void>;
  proxy(email: string): Promise<void>;
  endProxy(): Promise<void>;
}

export function useSessionStore(): AppSessionStore {
  const store = use(SessionContext);
  if (!store) throw new Error('useSession must be used inside <SessionProvider>');
  return store;
}

export function useSession(): Session {
  const store = useSessionStore();
  const state = useSyncExternalStore(store.subscribe, store.getState);
  return useMemo(
    () => ({
      ...state,
      authenticate: store.authenticate,
      signOut: store.signOut,
      reload: store.reload,
      proxy: store.proxy,
      endProxy: store.endProxy,
    }),
    [state, store],
  );
}
