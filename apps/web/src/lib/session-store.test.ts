import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, ServerUnreachableError, type SessionUser } from './session-store.ts';
import { PROXIED_USER_KEY, TOKEN_KEY } from './storage.ts';

const customer: SessionUser = {
  key: 'u1',
  group: 4,
  email: 'jo@example.com',
  firstName: 'Jo',
  lastName: null,
  pendingEmail: null,
  reamazeAuthKey: null,
};

/** A store whose "client" is a number counting identities, so tests can see cache resets. */
function makeStore(fetchUser: (client: number) => Promise<SessionUser>) {
  let clients = 0;
  const replaceUrl = vi.fn();
  const onAnonymous = vi.fn();
  const fetch = vi.fn(fetchUser);
  const onProxyEnded = vi.fn();
  const store = createSessionStore<number>({
    createClient: () => ++clients,
    fetchUser: fetch,
    replaceUrl,
    onAnonymous,
    onProxyEnded,
  });
  return { store, replaceUrl, onAnonymous, fetch, onProxyEnded };
}

const at = (href: string) => ({ href });

describe('session store (SPEC §4 Session)', () => {
  it('is not loaded before start', () => {
    const { store } = makeStore(async () => customer);
    expect(store.getState()).toMatchObject({ isLoaded: false, isAuthenticated: false, user: null });
  });

  it('without a token: loaded and unauthenticated, identity reset', async () => {
    const { store, fetch, onAnonymous } = makeStore(async () => customer);
    await store.start(at('http://app.test/me'));
    expect(store.getState()).toMatchObject({ isLoaded: true, isAuthenticated: false, token: null, user: null });
    expect(fetch).not.toHaveBeenCalled();
    expect(onAnonymous).toHaveBeenCalledOnce();
  });

  it('with a stored token: authenticated, loads the user and derives the flags', async () => {
    localStorage.setItem(TOKEN_KEY, 'stored');
    const { store } = makeStore(async () => ({ ...customer, group: 1 | 4 }));
    const started = store.start(at('http://app.test/me'));
    expect(store.getState()).toMatchObject({ isLoaded: false, isAuthenticated: true, token: 'stored' });
    await started;
    expect(store.getState()).toMatchObject({
      isLoaded: true,
      isAuthenticated: true,
      user: { key: 'u1' },
      isAdmin: true,
      isCustomer: true,
      isProfessional: false,
    });
  });

  it('takes a token from the URL query, stores it and drops it from the address', async () => {
    localStorage.setItem(TOKEN_KEY, 'old');
    const { store, replaceUrl } = makeStore(async () => customer);
    await store.start(at('http://app.test/me/settings?token=fresh&x=1#top'));
    expect(localStorage.getItem(TOKEN_KEY)).toBe('fresh');
    expect(store.getState().token).toBe('fresh');
    expect(replaceUrl).toHaveBeenCalledWith('/me/settings?x=1#top');
  });

  it.each(['/auth/email', '/auth/password'])('leaves the emailed link token of %s to its screen', async (path) => {
    const { store, replaceUrl } = makeStore(async () => customer);
    await store.start(at(`http://app.test${path}?token=link-token`));
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(store.getState().isAuthenticated).toBe(false);
    expect(replaceUrl).not.toHaveBeenCalled();
  });

  it('signs out when the server refuses the user', async () => {
    localStorage.setItem(TOKEN_KEY, 'expired');
    sessionStorage.setItem(PROXIED_USER_KEY, 'jane@x.io');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = makeStore(async () => {
      throw new Error('[GraphQL] Please sign in');
    });
    await store.start(at('http://app.test/me'));
    expect(store.getState()).toMatchObject({ isLoaded: true, isAuthenticated: false, token: null, user: null });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(PROXIED_USER_KEY)).toBeNull();
  });

  it('keeps the session and retries when the server does not answer', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem(TOKEN_KEY, 'good');
      let calls = 0;
      const { store } = makeStore(async () => {
        calls += 1;
        if (calls === 1) throw new ServerUnreachableError('[Network] Failed to fetch');
        return customer;
      });
      await store.start(at('http://app.test/me'));
      expect(localStorage.getItem(TOKEN_KEY)).toBe('good');
      expect(store.getState()).toMatchObject({ isLoaded: false, isAuthenticated: true });
      await vi.advanceTimersByTimeAsync(2_000);
      expect(calls).toBe(2);
      expect(store.getState()).toMatchObject({ isLoaded: true, user: customer });
    } finally {
      vi.useRealTimers();
    }
  });

  it('authenticate stores the token, replaces the client and loads the user', async () => {
    const { store } = makeStore(async () => customer);
    await store.start(at('http://app.test/signin'));
    const before = store.getClient();
    const listener = vi.fn();
    store.subscribe(listener);
    await store.authenticate('new-token');
    expect(localStorage.getItem(TOKEN_KEY)).toBe('new-token');
    expect(store.getClient()).not.toBe(before);
    expect(store.getState()).toMatchObject({ isAuthenticated: true, token: 'new-token', user: customer });
    expect(listener).toHaveBeenCalled();
  });

  it('signOut removes the token and the proxied email', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    const { store } = makeStore(async () => customer);
    await store.start(at('http://app.test/me'));
    await store.proxy('jane@x.io');
    expect(sessionStorage.getItem(PROXIED_USER_KEY)).toBe('jane@x.io');
    store.signOut();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(PROXIED_USER_KEY)).toBeNull();
    expect(store.getState()).toMatchObject({
      isAuthenticated: false,
      proxiedUser: null,
      user: null,
      isCustomer: false,
    });
  });

  it('UNAUTHENTICATED while proxied ends the proxy and reloads as oneself', async () => {
    localStorage.setItem(TOKEN_KEY, 'admin-token');
    const admin = { ...customer, key: 'admin', group: 5 };
    let proxyAccepted = true;
    const { store, onProxyEnded } = makeStore(async () => {
      if (sessionStorage.getItem(PROXIED_USER_KEY)) {
        if (!proxyAccepted) {
          // What the client's error exchange does before the failed result arrives.
          store.handleUnauthenticated();
          throw new Error('[GraphQL] Unknown user');
        }
        return customer;
      }
      return admin;
    });
    await store.start(at('http://app.test/me/admin'));
    await store.proxy('jo@example.com');
    expect(store.getState()).toMatchObject({ proxiedUser: 'jo@example.com', user: customer });

    proxyAccepted = false;
    await store.proxy('nobody@example.com');
    await vi.waitFor(() => expect(store.getState().user).toEqual(admin));
    expect(store.getState()).toMatchObject({ isAuthenticated: true, proxiedUser: null, token: 'admin-token' });
    expect(sessionStorage.getItem(PROXIED_USER_KEY)).toBeNull();
    // Ended here, not by Reset: recorded all the same (before, the server never heard of it and
    // kept the proxy open), once, with the administrator's own client.
    expect(onProxyEnded.mock.calls).toEqual([[store.getClient(), 'nobody@example.com']]);
  });

  it('a proxy the server does not answer is not applied: rejected, ended, recorded, and not loaded later', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem(TOKEN_KEY, 'admin-token');
      const admin = { ...customer, key: 'admin', group: 5 };
      let reachable = true;
      const { store, onProxyEnded, fetch } = makeStore(async () => {
        const proxied = sessionStorage.getItem(PROXIED_USER_KEY);
        if (proxied && !reachable) throw new ServerUnreachableError();
        return proxied ? customer : admin;
      });
      await store.start(at('http://app.test/me/admin'));
      reachable = false;
      await expect(store.proxy('bob@example.com')).rejects.toBeInstanceOf(ServerUnreachableError);
      // The administrator stays shown (loaded as such); the 'proxy on' recorded is closed again.
      expect(store.getState()).toMatchObject({ proxiedUser: null, user: admin });
      expect(sessionStorage.getItem(PROXIED_USER_KEY)).toBeNull();
      expect(onProxyEnded.mock.calls).toEqual([[store.getClient(), 'bob@example.com']]);

      // Switching from one proxied user to another: the one shown is ended too, back to oneself.
      reachable = true;
      await store.proxy('jo@example.com');
      reachable = false;
      await expect(store.proxy('bob@example.com')).rejects.toBeInstanceOf(ServerUnreachableError);
      await vi.waitFor(() => expect(store.getState()).toMatchObject({ proxiedUser: null, user: admin }));
      expect(onProxyEnded.mock.calls.at(-1)?.[1]).toBe('bob@example.com');
      const asked = fetch.mock.calls.length;
      reachable = true;
      await vi.advanceTimersByTimeAsync(30_000);
      // Nothing retried behind the form's back as Bob.
      expect(fetch.mock.calls.length).toBe(asked);
      expect(store.getState()).toMatchObject({ proxiedUser: null, user: admin });
    } finally {
      vi.useRealTimers();
    }
  });

  it('UNAUTHENTICATED without a proxy signs out', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    const { store } = makeStore(async () => customer);
    await store.start(at('http://app.test/me'));
    store.handleUnauthenticated();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, token: null });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('drops a user answer that arrives after the identity changed', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    let release: (user: SessionUser) => void = () => {};
    const { store } = makeStore(() => new Promise<SessionUser>((resolve) => (release = resolve)));
    const started = store.start(at('http://app.test/me'));
    store.signOut();
    release(customer);
    await started;
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null, isLoaded: true });
  });

  describe('another tab of the same browser signing in or out (the token is shared by local storage)', () => {
    const bob: SessionUser = { ...customer, key: 'u2', email: 'bob@example.com' };
    const otherTab = (token: string | null) => {
      if (token === null) localStorage.removeItem(TOKEN_KEY);
      else localStorage.setItem(TOKEN_KEY, token);
      window.dispatchEvent(new StorageEvent('storage', { key: TOKEN_KEY, newValue: token, storageArea: localStorage }));
    };

    it("drops this tab's user and cache when another user signs in there, and loads that user", async () => {
      localStorage.setItem(TOKEN_KEY, 'alice-token');
      const { store } = makeStore(async () => (localStorage.getItem(TOKEN_KEY) === 'bob-token' ? bob : customer));
      await store.start(at('http://app.test/me'));
      const aliceClient = store.getClient();
      sessionStorage.setItem(PROXIED_USER_KEY, 'someone@example.com');
      otherTab('bob-token');
      // At once: nothing of the previous user stays on screen or in the client's cache.
      expect(store.getState()).toMatchObject({ token: 'bob-token', user: null, proxiedUser: null });
      expect(store.getClient()).not.toBe(aliceClient);
      expect(sessionStorage.getItem(PROXIED_USER_KEY)).toBeNull();
      await vi.waitFor(() => expect(store.getState().user).toEqual(bob));
    });

    it('signs this tab out when another tab signs out', async () => {
      localStorage.setItem(TOKEN_KEY, 'alice-token');
      const { store } = makeStore(async () => customer);
      await store.start(at('http://app.test/me'));
      const aliceClient = store.getClient();
      otherTab(null);
      expect(store.getState()).toMatchObject({ isLoaded: true, isAuthenticated: false, token: null, user: null });
      expect(store.getClient()).not.toBe(aliceClient);
    });

    it('ignores other keys and a token it already holds', async () => {
      localStorage.setItem(TOKEN_KEY, 'alice-token');
      const { store, fetch } = makeStore(async () => customer);
      await store.start(at('http://app.test/me'));
      const client = store.getClient();
      window.dispatchEvent(new StorageEvent('storage', { key: 'other', newValue: 'x', storageArea: localStorage }));
      otherTab('alice-token');
      expect(store.getClient()).toBe(client);
      expect(fetch).toHaveBeenCalledOnce();
    });
  });
});
