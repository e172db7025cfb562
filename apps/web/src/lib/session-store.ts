import type { UserQuery } from '../gql/graphql.ts';
import { type GroupFlags, groupFlags } from './groups.ts';
import { readProxiedUser, readToken, TOKEN_KEY, writeProxiedUser, writeToken } from './storage.ts';
import { ServerUnreachableError } from './unreachable.ts';

export type SessionUser = UserQuery['user'];

/** SPEC §3 Session state. */
export interface SessionState {
  isLoaded: boolean;
  isAuthenticated: boolean;
  token: string | null;
  /** Email of the user an administrator acts as (sent as X-User). */
  proxiedUser: string | null;
  user: SessionUser | null;
}

export type SessionSnapshot = SessionState & GroupFlags;

export interface SessionStore<C> {
  getState(): SessionSnapshot;
  /** The GraphQL client of the current identity; replaced when the token or proxy changes. */
  getClient(): C;
  subscribe(listener: () => void): () => void;
  /** Startup: token from the URL query parameter `token` or local storage (SPEC §4). */
  start(location?: Pick<Location, 'href'>): Promise<void>;
  authenticate(token: string): Promise<void>;
  signOut(): void;
  /** Fetch the user again; failure signs out. */
  reload(): Promise<void>;
  /**
   * Act as another user (admin); resolves after the user was fetched as that user. Rejects with
   * the ServerUnreachableError when the server did not answer, proxy mode ended (not applied).
   */
  proxy(email: string): Promise<void>;
  /** Ends proxy mode (the caller records it: the admin screen's Reset). */
  endProxy(): Promise<void>;
  /** An UNAUTHENTICATED API error: end proxy mode if set, else sign out (SPEC §8). */
  handleUnauthenticated(): void;
}

export interface SessionStoreOptions<C> {
  createClient: () => C;
  fetchUser: (client: C) => Promise<SessionUser>;
  /** Called without a token at startup (SPEC §4: analytics identity reset). */
  onAnonymous?: () => void;
  /** Drops the token query parameter from the address bar once stored. */
  replaceUrl?: (url: string) => void;
  /**
   * Proxy mode ended by the store (the proxied user could no longer be loaded): records it on
   * the server with the administrator's own client (no X-User any more). Best effort.
   */
  onProxyEnded?: (client: C, email: string) => void;
}

/** Emailed links whose `token` is their own (confirmation, password reset), not a session. */
const LINK_TOKEN_PATH = /^\/auth\/(email|password)\/?$/;

const signedOut: SessionState = {
  isLoaded: true,
  isAuthenticated: false,
  token: null,
  proxiedUser: null,
  user: null,
};

/** fetchUser throws this when no answer came back (offline, server restarting, page left). */
export { ServerUnreachableError };

export function createSessionStore<C>(options: SessionStoreOptions<C>): SessionStore<C> {
  const listeners = new Set<() => void>();
  let snapshot: SessionSnapshot = withFlags({ ...signedOut, isLoaded: false });
  let client = options.createClient();
  // Each identity change bumps the generation; a user fetch answered for an older one is dropped.
  let generation = 0;

  function set(next: Partial<SessionState>, newIdentity = false): void {
    if (newIdentity) {
      generation += 1;
      client = options.createClient();
    }
    snapshot = withFlags({ ...snapshot, ...next });
    for (const listener of listeners) listener();
  }

  let retries = 0;

  /** `unreachableThrows`: a server that did not answer is the caller's to report, not retried here. */
  async function reload(unreachableThrows = false): Promise<void> {
    const requested = generation;
    if (!snapshot.token) return;
    try {
      const user = await options.fetchUser(client);
      retries = 0;
      if (requested === generation) set({ user, isLoaded: true });
    } catch (error) {
      if (requested !== generation) return;
      if (error instanceof ServerUnreachableError) {
        if (unreachableThrows) throw error;
        // The server did not answer (offline, restarting, or the page is being left): keep the
        // session and try again, rather than signing the user out over a dropped request.
        retries += 1;
        setTimeout(() => void reload(), Math.min(1000 * 2 ** retries, 10_000));
        return;
      }
      if (snapshot.proxiedUser) {
        // The proxied user cannot be loaded (not a confirmed user, or no longer an administrator
        // behind it): end proxy mode, not the administrator's session.
        console.error('Cannot load the proxied user; ending proxy mode', error);
        void endProxy(true);
        return;
      }
      console.error('Cannot load the user; signing out', error);
      signOut();
    }
  }

  function signOut(): void {
    writeToken(null);
    writeProxiedUser(null);
    set({ ...signedOut }, true);
  }

  /** `record`: ended here, not by the admin screen's Reset (which records it itself). */
  async function endProxy(record = false): Promise<void> {
    const email = snapshot.proxiedUser ?? readProxiedUser();
    writeProxiedUser(null);
    // The user shown was the proxied one: nothing is decided on it until the administrator is back.
    set({ proxiedUser: null, user: null }, true);
    // An end the server never hears of stays open there (and out of the audit log).
    if (record && email) options.onProxyEnded?.(client, email);
    await reload();
  }

  /**
   * The token lives in local storage, shared by every tab: once another tab signs out or in as
   * someone else, this tab's requests carry that token. The tab follows at once (a new client,
   * no user, no proxy of the previous administrator) so no screen shows one user's data under
   * another's name, or acts on the other account from a page that reads as the first.
   */
  let following = false;
  function followOtherTabs(): void {
    if (following || typeof window === 'undefined') return;
    following = true;
    window.addEventListener('storage', (event) => {
      if (event.key !== TOKEN_KEY && event.key !== null) return;
      const token = readToken();
      if (token === snapshot.token) return;
      writeProxiedUser(null);
      if (!token) {
        set({ ...signedOut }, true);
        return;
      }
      set({ isAuthenticated: true, token, proxiedUser: null, user: null }, true);
      void reload();
    });
  }

  return {
    getState: () => snapshot,
    getClient: () => client,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start(location = window.location) {
      followOtherTabs();
      const url = new URL(location.href);
      const urlToken = LINK_TOKEN_PATH.test(url.pathname) ? null : url.searchParams.get(TOKEN_KEY);
      if (urlToken) {
        writeToken(urlToken);
        url.searchParams.delete(TOKEN_KEY);
        options.replaceUrl?.(url.pathname + url.search + url.hash);
      }
      const token = urlToken || readToken();
      if (!token) {
        options.onAnonymous?.();
        set({ ...signedOut }, true);
        return;
      }
      set({ isLoaded: false, isAuthenticated: true, token, proxiedUser: readProxiedUser(), user: null }, true);
      await reload();
    },
    async authenticate(token) {
      writeToken(token);
      set({ isAuthenticated: true, token, user: null }, true);
      await reload();
    },
    signOut,
    reload: () => reload(),
    async proxy(email) {
      const previous = snapshot.proxiedUser;
      writeProxiedUser(email);
      set({ proxiedUser: email }, true);
      try {
        await reload(true);
      } catch (error) {
        // Not loaded as them (the server did not answer): not applied, rather than applied later
        // behind the administrator's back. The 'proxy on' the server recorded is closed again.
        if (previous) await endProxy(true);
        else {
          // The user shown is still the administrator, loaded as such: kept.
          writeProxiedUser(null);
          set({ proxiedUser: null }, true);
          options.onProxyEnded?.(client, email);
        }
        throw error;
      }
    },
    endProxy: () => endProxy(),
    handleUnauthenticated() {
      if (readProxiedUser() || snapshot.proxiedUser) void endProxy(true);
      else if (snapshot.isAuthenticated || readToken()) signOut();
    },
  };
}

function withFlags(state: SessionState): SessionSnapshot {
  return { ...state, ...groupFlags(state.user?.group) };
}
