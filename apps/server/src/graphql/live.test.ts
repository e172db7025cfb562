// The `live` subscription over Server-Sent Events (issue #21 point 3): 'ready' first, then an
// 'activity' event when the caller's activity grows (the actions trigger, LISTENed by the hub),
// never another user's; a change to a webhook sends 'hook'; closing the server ends the streams.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_END, PROXY_START } from '../../test/admin-fixtures.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN, STRONG_PASSWORD } from '../../test/identity.ts';
import { eventually, postSignal, setupTrader } from '../../test/signal-fixtures.ts';
import { recordAction } from '../db/repositories/action.repository.ts';
import { recordSignalOutcomes } from '../db/repositories/signals.repository.ts';
import { LIVE_MIN_GAP_MS } from './live.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, env: { HOOK_INVALID_THRESHOLD: '2' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** Subscribes as `headers`; `next()` resolves with the next event's kind. */
async function subscribe(headers: Record<string, string>, at = base) {
  const response = await fetch(`${at}/graphql`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { live { kind at } }' }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const kinds: string[] = [];
  const ats: number[] = [];

  async function next(): Promise<string | null> {
    for (;;) {
      const match = /data: (.*)\n/.exec(buffer);
      if (match) {
        buffer = buffer.slice((match.index ?? 0) + match[0].length);
        const live = (JSON.parse(match[1] ?? '{}') as { data?: { live?: { kind: string; at: number } } }).data?.live;
        if (live) {
          kinds.push(live.kind);
          ats.push(live.at);
          return live.kind;
        }
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  }
  return { next, kinds, ats };
}

describe('live subscription', () => {
  it("tells a user of their own new activity and webhook changes, and nobody else's", async () => {
    const a = await setupTrader(t, 'live-a@example.com');
    const b = await setupTrader(t, 'live-b@example.com');
    const liveA = await subscribe(a.headers);
    const liveB = await subscribe(b.headers);
    expect(await liveA.next()).toBe('ready');
    expect(await liveB.next()).toBe('ready');

    expect((await postSignal(t, a.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).statusCode).toBe(201);
    expect(await liveA.next()).toBe('activity');
    // B's own signal comes after A's on the one listening connection: B saw nothing of A's.
    expect((await postSignal(t, b.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).statusCode).toBe(201);
    expect(await liveB.next()).toBe('activity');
    expect(liveB.kinds).toEqual(['ready', 'activity']);

    // Two invalid requests deactivate the hook (hook_changed).
    for (let i = 0; i < 2; i++) expect((await postSignal(t, a.shortKey, { symbol: 'AAPL' })).statusCode).toBe(400);
    const kinds = new Set<string>();
    while (!kinds.has('hook')) kinds.add((await liveA.next()) ?? 'ended');
    expect(kinds.has('ended')).toBe(false);
  });

  it("tells of a signal's outcome written after its entry (late broker answer, reconciliation, a fill)", async () => {
    const a = await setupTrader(t, 'live-outcome@example.com');
    expect((await postSignal(t, a.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).statusCode).toBe(201);
    // Its entry and outcome written, and told, before the screen subscribes.
    await t.app.signalRuntime.writer.flush();
    await eventually(async () => {
      const { rows } = await t.services.db.$client.query('select 1 from signals where user_id = $1 and status = $2', [
        a.userId,
        'filled',
      ]);
      return rows.length === 1;
    });
    const live = await subscribe(a.headers);
    expect(await live.next()).toBe('ready');
    // The hub listens (an entry of the user's own is told).
    await recordAction(t.services.db, { userId: a.userId, code: 'Signin', address: null });
    expect(await live.next()).toBe('activity');
    // The broker answered after the deadline: the entry was written, the outcome comes later.
    const { rows } = await t.services.db.$client.query<{ id: string }>(
      "update signals set status = 'placing' where user_id = $1 returning id",
      [a.userId],
    );
    await recordSignalOutcomes(t.services.db.$client, [
      {
        id: rows[0]?.id ?? '',
        from: 'placing',
        status: 'rejected',
        brokerOrderId: null,
        price: null,
        response: null,
        elapsedMs: null,
        releaseCredit: true,
        message: 'Insufficient buying power',
      },
    ]);
    // The trade line, the chart's rejected bar and the balance (credit given back) changed.
    expect(await live.next()).toBe('activity');
  });

  it('tells a burst of changes as one event of each kind, not one reload per change', async () => {
    const a = await setupTrader(t, 'live-burst@example.com');
    const live = await subscribe(a.headers);
    expect(await live.next()).toBe('ready');
    // 1,500 changes at once (distinct payloads, so PostgreSQL does not fold them), then a webhook's.
    await t.services.db.$client.query(
      `select pg_notify('activity_added', $1 || ',' || -i) from generate_series(1, 1500) i`,
      [String(a.userId)],
    );
    await t.services.db.$client.query(`select pg_notify('hook_changed', $1)`, [a.shortKey]);
    // An event says only "look again": the screen reloads once or twice, not 1,500 times.
    while ((await live.next()) !== 'hook') expect(live.kinds.length).toBeLessThan(6);
    expect(new Set(live.kinds)).toEqual(new Set(['ready', 'activity', 'hook']));
  });

  it('tells a trickle of changes at most once every LIVE_MIN_GAP_MS', async () => {
    const a = await setupTrader(t, 'live-trickle@example.com');
    const live = await subscribe(a.headers);
    expect(await live.next()).toBe('ready');
    // Read as they come, meanwhile.
    const reading = (async () => {
      while ((await live.next()) !== 'hook') expect(live.kinds.length).toBeLessThan(30);
    })();
    // 20 changes 20 ms apart, each its own transaction (a flood of signals, one entry each).
    const started = performance.now();
    for (let i = 1; i <= 20; i++) {
      await t.services.db.$client.query(`select pg_notify('activity_added', $1)`, [`${a.userId},-${i}`]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const lasted = performance.now() - started;
    await t.services.db.$client.query(`select pg_notify('hook_changed', $1)`, [a.shortKey]);
    await reading;
    const activity = live.kinds.filter((kind) => kind === 'activity').length;
    // The first at once, then at most one per gap while the trickle lasted (and the one after it).
    expect(activity).toBeGreaterThanOrEqual(1);
    expect(activity).toBeLessThanOrEqual(Math.floor(lasted / LIVE_MIN_GAP_MS) + 2);
  });

  it('refuses an anonymous caller', async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { live { kind } }' }),
    });
    const text = await response.text();
    expect(text).toContain('UNAUTHENTICATED');
  });
});

describe('live subscription of a session that ends', () => {
  it('ends the stream when its session signs out; another session of the user keeps its own', async () => {
    const real = await startTestApp();
    try {
      await real.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(real.app.server.address() as AddressInfo).port}`;
      const user = await confirmedUser(real, 'live-signout@example.com');
      const other = await gql<{ signin: { token: string } }>(real.app, SIGNIN, {
        type: 'password',
        credentials: { email: 'live-signout@example.com', password: STRONG_PASSWORD },
      });
      const otherToken = other.data?.signin.token ?? '';
      const live = await subscribe(bearer(user.token), at);
      const kept = await subscribe(bearer(otherToken), at);
      expect(await live.next()).toBe('ready');
      expect(await kept.next()).toBe('ready');
      await recordAction(real.services.db, { userId: user.id, code: 'Signin', address: null });
      expect(await live.next()).toBe('activity');
      expect(await kept.next()).toBe('activity');

      expect((await gql(real.app, 'mutation { signout }', {}, bearer(user.token))).data).toEqual({ signout: true });
      await recordAction(real.services.db, { userId: user.id, code: 'Signin', address: null });
      expect(await kept.next()).toBe('activity');
      // The signed-out stream tells nothing more: it ends.
      expect(await live.next()).toBeNull();
      expect(live.kinds).toEqual(['ready', 'activity']);
    } finally {
      await real.close();
    }
  });
});

describe('live subscription of an instance not listening yet', () => {
  it("says 'ready' only once its instance listens: a screen reloading on it misses nothing", async () => {
    const fresh = await startTestApp({ authenticate: authenticateAsUserId });
    try {
      await fresh.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(fresh.app.server.address() as AddressInfo).port}`;
      const user = await insertTestUser(fresh.services, 'live-first@example.com');
      // The first stream opens the instance's listening connection (pool.connect() with no
      // callback; queries pass one): it waits, as a slow connection after a restart would.
      const pool = fresh.services.db.$client;
      const connect = pool.connect.bind(pool);
      let asked = () => {};
      const hubAsked = new Promise<void>((resolve) => {
        asked = resolve;
      });
      let open = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
        if (callback) return connect(callback);
        asked();
        return gate.then(() => connect());
      }) as typeof pool.connect;
      const live = await subscribe(user.headers, at);
      const ready = live.next();
      await hubAsked;
      pool.connect = connect;
      await new Promise((resolve) => setTimeout(resolve, 5));
      // A change while the instance does not listen: its notification is lost.
      await recordAction(fresh.services.db, { userId: user.id, code: 'Signin', address: null });
      const committed = Date.now();
      open();
      expect(await ready).toBe('ready');
      // 'ready' (the screens reload) came after it, so the screens show it.
      expect(live.ats[0]).toBeGreaterThanOrEqual(committed);
      // And a change after 'ready' is told.
      await recordAction(fresh.services.db, { userId: user.id, code: 'Signin', address: null });
      expect(await live.next()).toBe('activity');
    } finally {
      await fresh.close();
    }
  });
});

const CHANGE_PASSWORD = `mutation($password: String!, $newPassword: String!, $newPassword2: String!) {
  userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)
}`;
const NEW_PASSWORD = 'Harbor-Velvet-Orchid-77?';

describe('live subscription of an instance whose first attempt to listen fails', () => {
  it("says 'ready', then 'resync' once the instance listens: what happened between is reloaded", async () => {
    const fresh = await startTestApp({ authenticate: authenticateAsUserId });
    try {
      await fresh.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(fresh.app.server.address() as AddressInfo).port}`;
      const user = await insertTestUser(fresh.services, 'live-retry@example.com');
      // The listening connection fails once, as while the database restarts; the listener tries
      // again. (Other work takes connections too: only the listener's attempt fails.)
      const pool = fresh.services.db.$client;
      const connect = pool.connect.bind(pool);
      pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
        if (callback || !new Error().stack?.includes('listen.ts')) return callback ? connect(callback) : connect();
        pool.connect = connect;
        return Promise.reject(new Error('the database is starting up'));
      }) as typeof pool.connect;
      const live = await subscribe(user.headers, at);
      expect(await live.next()).toBe('ready');
      expect(await live.next()).toBe('resync');
      await recordAction(fresh.services.db, { userId: user.id, code: 'Signin', address: null });
      expect(await live.next()).toBe('activity');
    } finally {
      await fresh.close();
    }
  });
});

describe('live subscription of a session ended on another instance', () => {
  it('ends at once, with no event to tell, when signed out or after a password change', async () => {
    const one = await startTestApp();
    const two = await startTestApp({ database: one.database });
    try {
      await two.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(two.app.server.address() as AddressInfo).port}`;
      const user = await confirmedUser(one, 'live-revoked@example.com');
      const signin = async () =>
        (
          await gql<{ signin: { token: string } }>(one.app, SIGNIN, {
            type: 'password',
            credentials: { email: 'live-revoked@example.com', password: STRONG_PASSWORD },
          })
        ).data?.signin.token ?? '';
      const [out, changedAway] = [await signin(), await signin()];
      const signedOut = await subscribe(bearer(out), at);
      const reset = await subscribe(bearer(changedAway), at);
      const kept = await subscribe(bearer(user.token), at);
      for (const live of [signedOut, reset, kept]) expect(await live.next()).toBe('ready');

      // Signed out through instance one: instance two's stream ends, though nothing else happens.
      expect((await gql(one.app, 'mutation { signout }', {}, bearer(out))).data).toEqual({ signout: true });
      expect(await signedOut.next()).toBeNull();
      expect(signedOut.kinds).toEqual(['ready']);

      // The password changed (through one, by the kept session): the user's other sessions end.
      const password = { password: STRONG_PASSWORD, newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD };
      expect((await gql(one.app, CHANGE_PASSWORD, password, bearer(user.token))).errors).toBeUndefined();
      expect(await reset.next()).toBeNull();
      expect(reset.kinds).toEqual(['ready']);
      // The session that changed it keeps its stream.
      await recordAction(one.services.db, { userId: user.id, code: 'Signin', address: null });
      expect(await kept.next()).toBe('activity');
    } finally {
      await two.close();
      await one.close();
    }
  });
});

describe('live subscription while the server closes', () => {
  it('ends a stream that subscribes once the streams were ended, so the server closes', async () => {
    let hold = false;
    let arrived = () => {};
    const authenticating = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let go = () => {};
    const gate = new Promise<void>((resolve) => {
      go = resolve;
    });
    const closing = await startTestApp({
      authenticate: async (...args) => {
        if (hold) {
          arrived();
          await gate;
        }
        return authenticateAsUserId(...args);
      },
    });
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const at = `http://127.0.0.1:${(closing.app.server.address() as AddressInfo).port}`;
    const user = await insertTestUser(closing.services, 'live-closing@example.com');
    // A stream's request is being authenticated when the server starts closing (a deploy).
    hold = true;
    const live = subscribe(user.headers, at);
    await authenticating;
    hold = false;
    const closed = closing.close();
    // The open streams were ended (preClose) before this one subscribes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    go();
    // It ends at once rather than holding the server open (and a listening connection) for good.
    expect(await (await live).next()).toBeNull();
    await closed;
  });
});

describe('live subscription of an administrator acting as a user', () => {
  it('ends at once when the proxy ends; the user keeps their own stream', async () => {
    const real = await startTestApp();
    try {
      await real.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(real.app.server.address() as AddressInfo).port}`;
      const admin = await confirmedUser(real, 'live-admin@example.test'); // the first: administrator
      const bob = await confirmedUser(real, 'live-bob@example.test');
      const started = await gql(real.app, PROXY_START, { email: 'live-bob@example.test' }, bearer(admin.token));
      expect(started.data).toEqual({ adminProxyStart: 'live-bob@example.test' });
      const proxied = await subscribe(bearer(admin.token, { 'x-user': 'live-bob@example.test' }), at);
      const own = await subscribe(bearer(bob.token), at);
      expect(await proxied.next()).toBe('ready');
      expect(await own.next()).toBe('ready');

      const ended = await gql(real.app, PROXY_END, { email: 'live-bob@example.test' }, bearer(admin.token));
      expect(ended.data).toEqual({ adminProxyEnd: true });
      expect(await proxied.next()).toBeNull();
      expect(proxied.kinds).toEqual(['ready']);
      await recordAction(real.services.db, { userId: bob.id, code: 'Signin', address: null });
      expect(await own.next()).toBe('activity');
    } finally {
      await real.close();
    }
  });
});
