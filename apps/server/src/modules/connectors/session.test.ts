// withBrokerSession: what the hook endpoint calls. Paper orders through a stored connection,
// token refresh once under concurrency, deactivation when the broker rejects the credentials.
import { BrokerError } from '@router/brokers';
import type { Order } from '@router/orders';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { CONNECTOR_FIELDS, connect, gql } from '../../../test/connector-fixtures.ts';
import { type FakeBrokerHandle, fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { createDatabase } from '../../db/client.ts';
import { insertConnector } from '../../db/repositories/connectors.repository.ts';
import type { Services } from '../../services.ts';
import { findHookForSignal } from '../hooks/index.ts';
import { OAUTH_STATE_TTL_MS } from './create.ts';
import {
  CONNECTOR_DEACTIVATED_MESSAGE,
  requireConnector,
  UNREADABLE_SECRETS_MESSAGE,
  withBrokerSession,
} from './index.ts';
import { refreshDueConnectors, startConnectorRefresher } from './refresher.ts';
import { openSession } from './session.ts';

let t: TestApp;
let fake: FakeBrokerHandle;
let alice: Record<string, string>;
let aliceId: number;
beforeAll(async () => {
  fake = fakeKeyBroker();
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [fake.broker] });
  ({ headers: alice, id: aliceId } = await insertTestUser(t.services, 'alice@example.com'));
});
afterAll(() => t.close());

const ORDER: Order = {
  symbol: 'AAPL',
  class: 'stock',
  action: 'buy',
  quantity: 2,
  quantity_type: 'fixed',
  type: 'market',
  duration: 'day',
  extra: { price: 100 },
};

/**
 * The database refuses to store new secrets in this connector's row (as through an outage after
 * the broker answered) until the returned function runs; only for connections named `from`
 * (application_name) when given: one instance cut off from the database, another not.
 */
async function refuseWrites(id: number, from?: string): Promise<() => Promise<void>> {
  const pool = t.database.pool;
  const only = from ? `and current_setting('application_name') = '${from}'` : '';
  await pool.query(
    `create function test_refuse_write() returns trigger language plpgsql as $$
    begin if true ${only} then raise exception 'database unavailable'; end if; return new; end $$`,
  );
  await pool.query(
    `create trigger test_refuse_write before update on connectors for each row
    when (old.id = ${Number(id)} and new.secrets is distinct from old.secrets) execute function test_refuse_write()`,
  );
  return async () => {
    await pool.query(
      'drop trigger if exists test_refuse_write on connectors; drop function if exists test_refuse_write()',
    );
  };
}

/** ConnectorDeactivate lines of a connector so far. */
async function deactivations(key: string): Promise<number> {
  const { rows } = await t.database.pool.query(
    "select count(*)::int as n from actions where code = 'ConnectorDeactivate' and metadata->>'key' = $1",
    [key],
  );
  return (rows[0] as { n: number }).n;
}

describe('withBrokerSession', () => {
  it('places a paper order through a hook found by its short key; the account lives in PostgreSQL', async () => {
    const paper = await connect(t, alice, 'paper');
    const accountId = (JSON.parse(paper.accounts) as Array<{ id: string }>)[0]?.id ?? '';
    const created = await gql<{ hookCreate: { shortKey: string } }>(
      t,
      alice,
      `mutation($k: String!, $a: String!) { hookCreate(connectorKey: $k, accountId: $a) { shortKey } }`,
      { k: paper.key, a: accountId },
    );
    const hook = await findHookForSignal(t.services, created.data?.hookCreate.shortKey ?? '');
    if (!hook) throw new Error('hook not found');
    const place = () =>
      withBrokerSession(t.services, hook.connector, ({ broker, ctx, session }) =>
        broker.placeOrder(ctx, session, { accountId: hook.accountId, order: ORDER, clientOrderId: 'sig-1' }),
      );
    const first = await place();
    expect(first).toMatchObject({ status: 'filled', price: 100 });
    // The same client order id again: the first answer (the paper store found it in PostgreSQL).
    expect(await place()).toEqual(first);
    const { rows } = await t.database.pool.query('select id from paper_orders where account_id = $1', [accountId]);
    expect(rows).toHaveLength(1);
  });

  it('refreshes a due token once for concurrent calls and stores the new secrets', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-r', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    const refreshesBefore = fake.calls.refresh;
    const tokens = await Promise.all(
      Array.from({ length: 5 }, () =>
        withBrokerSession(t.services, row, async ({ session }) => session.secrets.accessToken),
      ),
    );
    expect(fake.calls.refresh - refreshesBefore).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe('access-1');
    const stored = await requireConnector(t.services, aliceId, connector.key);
    expect(stored.refreshAt?.getTime()).toBeGreaterThan(Date.now());
    expect(stored.updatedAt.getTime()).toBeGreaterThan(row.updatedAt.getTime());
    // A caller holding the old row still gets the refreshed session, with no second refresh.
    expect(await withBrokerSession(t.services, row, async ({ session }) => session.secrets.accessToken)).toBe(
      tokens[0],
    );
    expect(fake.calls.refresh - refreshesBefore).toBe(1);
  });

  it('two instances finding one token due at once refresh it once: the later one takes what the first stored', async () => {
    // A second server on the same database, with its own caches and its own in-process single flight.
    const other = await startTestApp({ database: t.database, brokers: [fake.broker] });
    try {
      fake.refreshInMs = -1000;
      const connector = await connect(t, alice, 'keyfake', ['key-two-instances', 'sekret-ok']);
      fake.refreshInMs = 3_600_000;
      const row = await requireConnector(t.services, aliceId, connector.key);
      const before = fake.calls.refresh;
      const tokens = await Promise.all(
        [t.services, other.services, t.services, other.services].map((services) =>
          withBrokerSession(services, row, async ({ session }) => session.secrets.accessToken),
        ),
      );
      expect(fake.calls.refresh - before).toBe(1);
      expect(new Set(tokens).size).toBe(1);
      const stored = await requireConnector(t.services, aliceId, connector.key);
      expect(stored.isActive).toBe(true);
      expect(openSession(t.services, stored).secrets.accessToken).toBe(tokens[0]);
    } finally {
      await other.close();
    }
  });

  it('a renewal the broker asks for during a call is made under the lock and stored before it is used', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-in-call', 'sekret-ok']);
    const row = await requireConnector(t.services, aliceId, connector.key);
    const before = fake.calls.refresh;
    // A broker whose access token was refused mid-call (Saxo rotates its refresh token then).
    const renewed = await withBrokerSession(t.services, row, async ({ ctx }) => {
      const fresh = await ctx.refreshSession?.();
      return fresh?.secrets.accessToken;
    });
    expect(fake.calls.refresh - before).toBe(1);
    expect(renewed).toMatch(/^access-/);
    // What a restarted server (or another instance) reads: the renewed secrets, not the spent ones.
    const stored = await requireConnector(t.services, aliceId, connector.key);
    expect(stored.updatedAt.getTime()).toBeGreaterThan(row.updatedAt.getTime());
    expect(openSession(t.services, stored).secrets.accessToken).toBe(renewed);
  });

  it('refreshes due sessions in the background, once, so no signal waits for it', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-bg', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const before = fake.calls.refresh;
    const pass = await refreshDueConnectors(t.services);
    expect(pass.refreshed).toBeGreaterThanOrEqual(1);
    expect(fake.calls.refresh - before).toBe(pass.refreshed);
    const stored = await requireConnector(t.services, aliceId, connector.key);
    expect(stored.refreshAt?.getTime()).toBeGreaterThan(Date.now());
    // Nothing is due any more: the next pass calls the broker for nothing.
    const calls = fake.calls.refresh;
    expect(await refreshDueConnectors(t.services)).toEqual({ refreshed: 0, failed: 0 });
    expect(fake.calls.refresh).toBe(calls);
  });

  it('a background pass forgets pending OAuth connections abandoned past their window, keeping recent ones', async () => {
    const { id: userId } = await insertTestUser(t.services, 'abandoned@example.com');
    const now = new Date();
    const pending = async (ageMs: number) =>
      (
        await insertConnector(t.services.db, {
          key: `pending-${ageMs}`,
          userId,
          providerName: 'keyfake',
          oauthState: `state-${ageMs}`,
          createdAt: new Date(now.getTime() - ageMs),
        })
      ).id;
    const abandoned = await pending(OAUTH_STATE_TTL_MS + 60_000);
    const recent = await pending(60_000);
    await refreshDueConnectors(t.services, now);
    const { rows } = await t.database.pool.query<{ id: number }>('select id from connectors where user_id = $1', [
      userId,
    ]);
    expect(rows.map((r) => Number(r.id))).toEqual([recent]);
    expect(abandoned).not.toBe(recent);
  });

  it('a batch of refreshes that keep failing does not keep the other due sessions from theirs', async () => {
    const users = [
      await insertTestUser(t.services, 'down-1@example.com'),
      await insertTestUser(t.services, 'down-2@example.com'),
    ];
    fake.refreshInMs = -60_000;
    const down = [];
    for (const [i, user] of users.entries())
      down.push(await connect(t, user.headers, 'keyfake', [`down-${i}`, 'sekret-ok']));
    fake.refreshInMs = -1000;
    const healthy = await connect(t, alice, 'keyfake', ['key-after', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    fake.unavailableFor = new Set(['down-0', 'down-1']);
    try {
      // Passes of two: the broker is down for the two oldest, pass after pass.
      await refreshDueConnectors(t.services, new Date(), 2);
      await refreshDueConnectors(t.services, new Date(), 2);
      const stored = await requireConnector(t.services, aliceId, healthy.key);
      expect(stored.refreshAt?.getTime()).toBeGreaterThan(Date.now());
    } finally {
      fake.unavailableFor = new Set();
      await t.database.pool.query('delete from connectors where key = any($1)', [down.map((c) => c.key)]);
    }
  });

  it('a due refresh the broker cannot make now does not fail the order: the still-valid token places it, once', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-outage', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    const before = { ...fake.calls };
    fake.unavailableFor = new Set(['key-outage']);
    try {
      const placed = await withBrokerSession(t.services, row, ({ broker, ctx, session }) =>
        broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId: 'sig-outage' }),
      );
      expect(placed).toMatchObject({ id: 'B-1', status: 'filled' });
      expect(fake.calls.placeOrder - before.placeOrder).toBe(1);
      expect(fake.calls.refresh - before.refresh).toBe(1);
      // A renewal the adapter asks for in the same call is not tried at the broker again.
      const asked = withBrokerSession(t.services, row, async ({ ctx }) => ctx.refreshSession?.());
      await expect(asked).rejects.toMatchObject({ kind: 'BrokerUnavailable' });
      expect(fake.calls.refresh - before.refresh).toBe(2);
      // The background refresher still counts it as failed, and tries again on its next pass.
      const pass = await refreshDueConnectors(t.services);
      expect(pass.failed).toBeGreaterThanOrEqual(1);
      const stored = await requireConnector(t.services, aliceId, connector.key);
      expect(stored.isActive).toBe(true);
      expect(stored.refreshAt?.getTime()).toBeLessThan(Date.now());
    } finally {
      fake.unavailableFor = new Set();
    }
    const renewed = await refreshDueConnectors(t.services);
    expect(renewed.refreshed).toBeGreaterThanOrEqual(1);
  });

  it('a rotated token the database fails to store is kept and used, stored once it answers, never spent twice', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-rotate', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    const pool = t.database.pool;
    const outageOver = await refuseWrites(row.id);
    fake.singleUseRefresh = true;
    try {
      const before = fake.calls.refresh;
      const placed = await withBrokerSession(t.services, row, ({ broker, ctx, session }) =>
        broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId: 'sig-rotate' }),
      );
      expect(placed).toMatchObject({ status: 'filled' });
      expect(fake.calls.refresh - before).toBe(1);
      // Not stored yet, but in use, and not refreshed again from the spent token.
      const kept = await withBrokerSession(t.services, row, async ({ session }) => session.secrets.refreshToken);
      expect(kept).toMatch(/^refresh-secret-/);
      expect(fake.calls.refresh - before).toBe(1);
      let stored = await requireConnector(t.services, aliceId, connector.key);
      expect(openSession(t.services, stored).secrets.refreshToken).toBeUndefined();
      await outageOver();
      // The next background pass stores it.
      await refreshDueConnectors(t.services);
      stored = await requireConnector(t.services, aliceId, connector.key);
      expect(stored.isActive).toBe(true);
      expect(openSession(t.services, stored).secrets.refreshToken).toBe(kept);
      // The next renewal sends the rotated token, which the broker accepts.
      await pool.query(
        "update connectors set refresh_at = now() - interval '1 second', updated_at = clock_timestamp() where id = $1",
        [row.id],
      );
      const due = await requireConnector(t.services, aliceId, connector.key);
      const renewed = await withBrokerSession(t.services, due, async ({ session }) => session.secrets.refreshToken);
      expect(renewed).toMatch(/^refresh-secret-/);
      expect(renewed).not.toBe(kept);
      stored = await requireConnector(t.services, aliceId, connector.key);
      expect(stored.isActive).toBe(true);
      expect(openSession(t.services, stored).secrets.refreshToken).toBe(renewed);
    } finally {
      fake.singleUseRefresh = false;
      await outageOver();
    }
  });

  it('another instance never sends a refresh token spent by one whose renewal the database did not take', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-kept-elsewhere', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    // Instance A: its own connections, its own caches; the database refuses its writes of the renewal.
    const pool = new pg.Pool({ connectionString: t.database.url, max: 2, application_name: 'instance-a' });
    const a: Services = { ...t.services, db: createDatabase(pool) };
    const outageOver = await refuseWrites(row.id, 'instance-a');
    fake.singleUseRefresh = true;
    try {
      const before = fake.calls.refresh;
      const kept = await withBrokerSession(a, row, async ({ session }) => session.secrets.refreshToken);
      expect(kept).toMatch(/^refresh-secret-/);
      expect(fake.calls.refresh - before).toBe(1);
      // Instance B finds the stored token due: it does not spend it again, and its order goes on.
      const placed = await withBrokerSession(t.services, row, ({ broker, ctx, session }) =>
        broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId: 'sig-kept-elsewhere' }),
      );
      expect(placed).toMatchObject({ status: 'filled' });
      expect((await refreshDueConnectors(t.services)).failed).toBeGreaterThanOrEqual(1);
      expect(fake.calls.refresh - before).toBe(1);
      expect((await requireConnector(t.services, aliceId, connector.key)).isActive).toBe(true);
      // A stores its renewal once the database takes it; B renews from it.
      await outageOver();
      await refreshDueConnectors(a);
      const stored = await requireConnector(t.services, aliceId, connector.key);
      expect(stored.isActive).toBe(true);
      expect(openSession(t.services, stored).secrets.refreshToken).toBe(kept);
      await t.database.pool.query(
        "update connectors set refresh_at = now() - interval '1 second', updated_at = clock_timestamp() where id = $1",
        [row.id],
      );
      const due = await requireConnector(t.services, aliceId, connector.key);
      const renewed = await withBrokerSession(t.services, due, async ({ session }) => session.secrets.refreshToken);
      expect(renewed).not.toBe(kept);
      expect(fake.calls.refresh - before).toBe(2);
      expect((await requireConnector(t.services, aliceId, connector.key)).isActive).toBe(true);
    } finally {
      fake.singleUseRefresh = false;
      await outageOver();
      await pool.end();
    }
  });

  it('a renewal is stored when the session it renews has a field its adapter left undefined', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-undefined-field', 'sekret-ok']);
    const { refresh } = fake.broker;
    if (!refresh) throw new Error('the fake renews');
    fake.broker.refresh = async (ctx, session) => {
      const next = await refresh.call(fake.broker, ctx, session);
      return { ...next, secrets: { ...next.secrets, accountHint: undefined as unknown as string } };
    };
    fake.refreshInMs = -1000;
    try {
      const row = await requireConnector(t.services, aliceId, connector.key);
      const first = await withBrokerSession(t.services, row, async ({ ctx }) => ctx.refreshSession?.());
      // Still due: the next call renews the session just stored (cached, with its undefined field).
      const stored = await requireConnector(t.services, aliceId, connector.key);
      const second = await withBrokerSession(t.services, stored, async ({ session }) => session.secrets.refreshToken);
      expect(second).not.toBe(first?.secrets.refreshToken);
      const after = await requireConnector(t.services, aliceId, connector.key);
      expect(openSession(t.services, after).secrets.refreshToken).toBe(second);
    } finally {
      fake.broker.refresh = refresh;
      fake.refreshInMs = 3_600_000;
    }
  });

  it('a refresh recorded as sent long ago (its instance gone) no longer holds the others back', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-sent-lapsed', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    const before = fake.calls.refresh;
    const sentAgo = (minutes: number) =>
      t.database.pool.query(
        `update connectors set refresh_sent_at = clock_timestamp() - make_interval(mins => $2) where id = $1`,
        [row.id, minutes],
      );
    await sentAgo(1);
    await expect(withBrokerSession(t.services, row, async () => 0, { refreshOnly: true })).rejects.toMatchObject({
      kind: 'BrokerUnavailable',
    });
    expect(fake.calls.refresh - before).toBe(0);
    await sentAgo(11);
    const renewed = await withBrokerSession(t.services, row, async ({ session }) => session.secrets.refreshToken);
    expect(renewed).toMatch(/^refresh-secret-/);
    expect(fake.calls.refresh - before).toBe(1);
    const { rows } = await t.database.pool.query('select refresh_sent_at from connectors where id = $1', [row.id]);
    expect(rows[0]?.refresh_sent_at).toBeNull();
  });

  it('a reconnect made while the broker renews the old grant stays: that renewal is not stored over it', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-renew-reconnect', 'sekret-ok']);
    // A first renewal stored as usual (still due): the row holds a refresh token.
    await withBrokerSession(t.services, await requireConnector(t.services, aliceId, connector.key), async () => 0);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    const { refresh } = fake.broker;
    if (!refresh) throw new Error('the fake renews');
    fake.broker.refresh = async (ctx, session) => {
      fake.broker.refresh = refresh;
      // The user connects again while the broker answers (the row is not locked meanwhile).
      await connect(t, alice, 'keyfake', ['key-renew-reconnect', 'sekret-ok']);
      return refresh.call(fake.broker, ctx, session);
    };
    const used = await withBrokerSession(t.services, row, async ({ session }) => session.secrets.refreshToken).finally(
      () => {
        fake.broker.refresh = refresh;
      },
    );
    expect(used).toBeUndefined();
    const stored = await requireConnector(t.services, aliceId, connector.key);
    expect(stored.isActive).toBe(true);
    expect(openSession(t.services, stored).secrets.refreshToken).toBeUndefined();
  });

  it('a rotated token kept while the database failed is saved when the server stops', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-kept-stop', 'sekret-ok']);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    const outageOver = await refuseWrites(row.id);
    try {
      const kept = await withBrokerSession(t.services, row, async ({ session }) => session.secrets.refreshToken);
      expect(kept).toMatch(/^refresh-secret-/);
      await outageOver();
      const stop = startConnectorRefresher(t.services);
      await stop();
      const stored = await requireConnector(t.services, aliceId, connector.key);
      expect(openSession(t.services, stored).secrets.refreshToken).toBe(kept);
    } finally {
      await outageOver();
    }
  });

  it('a rotated token kept while the database failed does not overwrite a reconnect made meanwhile', async () => {
    fake.refreshInMs = -1000;
    const connector = await connect(t, alice, 'keyfake', ['key-kept-reconnect', 'sekret-ok']);
    // A first renewal stored as usual (still due): the row holds a refresh token.
    const first = await requireConnector(t.services, aliceId, connector.key);
    await withBrokerSession(t.services, first, async () => undefined);
    fake.refreshInMs = 3_600_000;
    const row = await requireConnector(t.services, aliceId, connector.key);
    expect(openSession(t.services, row).secrets.refreshToken).toMatch(/^refresh-secret-/);
    const outageOver = await refuseWrites(row.id);
    try {
      const kept = await withBrokerSession(t.services, row, async ({ session }) => session.secrets.refreshToken);
      expect(kept).not.toBe(openSession(t.services, row).secrets.refreshToken);
      await outageOver();
      // The user connects again before the kept session is saved: the new grant stays.
      await connect(t, alice, 'keyfake', ['key-kept-reconnect', 'sekret-ok']);
      await refreshDueConnectors(t.services);
      const stored = await requireConnector(t.services, aliceId, connector.key);
      expect(stored.isActive).toBe(true);
      expect(openSession(t.services, stored).secrets.refreshToken).toBeUndefined();
      expect(await withBrokerSession(t.services, stored, async ({ session }) => session.secrets.refreshToken)).toBe(
        undefined,
      );
    } finally {
      await outageOver();
    }
  });

  it('deactivates the connector when the broker rejects the credentials; a reconnect reactivates it', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-d', 'sekret-ok']);
    const row = await requireConnector(t.services, aliceId, connector.key);
    fake.rejectCredentials = true;
    const failing = withBrokerSession(t.services, row, ({ broker, ctx, session }) =>
      broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId: 'sig-2' }),
    );
    await expect(failing).rejects.toBeInstanceOf(BrokerError);
    fake.rejectCredentials = false;
    const after = await gql<{ connector: { isActive: boolean } }>(
      t,
      alice,
      `query($k: String!) { connector(key: $k) { ${CONNECTOR_FIELDS} } }`,
      { k: connector.key },
    );
    expect(after.data?.connector.isActive).toBe(false);
    const { rows } = await t.database.pool.query<{ metadata: Record<string, unknown> }>(
      "select metadata from actions where user_id = $1 and code = 'ConnectorDeactivate'",
      [aliceId],
    );
    expect(rows.at(-1)?.metadata).toMatchObject({
      providerName: 'keyfake',
      key: connector.key,
      reason: 'Key Fake: token revoked',
    });
    const inactive = await requireConnector(t.services, aliceId, connector.key);
    await expect(withBrokerSession(t.services, inactive, async () => 'never')).rejects.toThrow(
      CONNECTOR_DEACTIVATED_MESSAGE,
    );
    const again = await connect(t, alice, 'keyfake', ['key-d', 'sekret-ok']);
    expect(again).toMatchObject({ key: connector.key, isActive: true });
  });

  it('an order meeting a refused access token renews it, keeps the connection, and is not sent again', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-early', 'sekret-ok']);
    const row = await requireConnector(t.services, aliceId, connector.key);
    const before = { ...fake.calls };
    fake.refuseAccessToken = true;
    try {
      const failing = withBrokerSession(t.services, row, ({ broker, ctx, session }) =>
        broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId: 'sig-early' }),
      );
      await expect(failing).rejects.toMatchObject({ kind: 'AuthenticationError' });
    } finally {
      fake.refuseAccessToken = false;
    }
    expect(fake.calls.placeOrder - before.placeOrder).toBe(1);
    // The grant still renews: the connection stays, with the renewed token stored for the next signal.
    expect(fake.calls.refresh - before.refresh).toBe(1);
    const stored = await requireConnector(t.services, aliceId, connector.key);
    expect(stored.isActive).toBe(true);
    expect(openSession(t.services, stored).secrets.accessToken).toMatch(/^access-/);
    expect(await withBrokerSession(t.services, stored, async () => 'works')).toBe('works');
  });

  it("an order meeting a token another instance's refresh replaced goes once more with the stored one, and only once", async () => {
    const other = await startTestApp({ database: t.database, brokers: [fake.broker] });
    try {
      fake.refreshInMs = -1000;
      const connector = await connect(t, alice, 'keyfake', ['key-replaced', 'sekret-ok']);
      fake.refreshInMs = 3_600_000;
      // This instance renews and keeps the session (as the hook cache keeps the connector it read).
      const row = await requireConnector(t.services, aliceId, connector.key);
      const mine = await withBrokerSession(t.services, row, async ({ session }) => session.secrets.accessToken);
      // The other instance renews it again; the broker ends the token this one holds.
      await t.database.pool.query("update connectors set refresh_at = now() - interval '1 second' where id = $1", [
        row.id,
      ]);
      const due = await requireConnector(other.services, aliceId, connector.key);
      const theirs = await withBrokerSession(other.services, due, async ({ session }) => session.secrets.accessToken);
      expect(theirs).not.toBe(mine);
      fake.endReplacedTokens = true;
      const before = { ...fake.calls };
      const place = (clientOrderId: string) =>
        withBrokerSession(t.services, row, ({ broker, ctx, session }) =>
          broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId }),
        );
      expect(await place('sig-replaced')).toMatchObject({ status: 'filled' });
      // Refused once with the ended token, placed once with the stored one; no refresh of its own.
      expect(fake.calls.placeOrder - before.placeOrder).toBe(2);
      expect(fake.calls.refresh - before.refresh).toBe(0);
      // The next signal goes with the stored token straight away.
      expect(await place('sig-replaced-2')).toMatchObject({ status: 'filled' });
      expect(fake.calls.placeOrder - before.placeOrder).toBe(3);
      expect((await requireConnector(t.services, aliceId, connector.key)).isActive).toBe(true);
    } finally {
      fake.endReplacedTokens = false;
      await other.close();
    }
  });

  it('a grant revoked at the broker deactivates the connection once across instances; later signals get the clear refusal', async () => {
    const other = await startTestApp({ database: t.database, brokers: [fake.broker] });
    try {
      fake.refreshInMs = -1000;
      const connector = await connect(t, alice, 'keyfake', ['key-revoked', 'sekret-ok']);
      fake.refreshInMs = 3_600_000;
      const row = await requireConnector(t.services, aliceId, connector.key);
      // Both instances hold a renewed session (not due), as their hook caches hold the connector.
      await withBrokerSession(t.services, row, async () => undefined);
      await withBrokerSession(other.services, row, async () => undefined);
      const deactivatedBefore = await deactivations(connector.key);
      fake.rejectCredentials = true;
      const place = (services: Services, clientOrderId: string) =>
        withBrokerSession(services, row, ({ broker, ctx, session }) =>
          broker.placeOrder(ctx, session, { accountId: 'L-1', order: ORDER, clientOrderId }),
        );
      // One signal on the other instance meets the refusal: its renewal is refused, the connection deactivated.
      await expect(place(other.services, 'sig-revoked')).rejects.toMatchObject({ kind: 'AuthenticationError' });
      // (Every keyfake connection of alice is this one connector: its earlier tests' lines are not counted.)
      expect((await deactivations(connector.key)) - deactivatedBefore).toBe(1);
      // Signals after it, on either instance (this one still holding the session and the connector
      // as they were), at once: SPEC's refusal, and no second deactivation.
      const late = await Promise.allSettled(
        [t.services, other.services, t.services, other.services].map((services, i) =>
          place(services, `sig-revoked-late-${i}`),
        ),
      );
      // This instance's call is refused by the broker for sure (nothing placed: no lost signal),
      // in SPEC's words; the other one's is refused before any call (the connection read inactive).
      const mine = { kind: 'AuthenticationError', outcomeUnknown: false, brokerMessage: CONNECTOR_DEACTIVATED_MESSAGE };
      const theirs = { code: 'EXECUTION', message: CONNECTOR_DEACTIVATED_MESSAGE };
      expect(late).toMatchObject([mine, theirs, mine, theirs].map((reason) => ({ status: 'rejected', reason })));
      expect((await deactivations(connector.key)) - deactivatedBefore).toBe(1);
    } finally {
      fake.rejectCredentials = false;
      await other.close();
    }
  });

  it('keeps a connector reconnected while a call on its old credentials was being refused', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-rc', 'sekret-ok']);
    const row = await requireConnector(t.services, aliceId, connector.key);
    // The old grant is refused only after the user connected again (a new sign-in revokes it).
    const failing = withBrokerSession(t.services, row, async () => {
      await connect(t, alice, 'keyfake', ['key-rc', 'sekret-ok']);
      throw new BrokerError('AuthenticationError', 'Key Fake', 'token revoked');
    });
    await expect(failing).rejects.toBeInstanceOf(BrokerError);
    const stored = await requireConnector(t.services, aliceId, connector.key);
    expect(stored.isActive).toBe(true);
    expect(await withBrokerSession(t.services, stored, async () => 'works')).toBe('works');
  });

  it('refuses secrets that do not open (tampered), without deactivating', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-t', 'sekret-ok']);
    await t.database.pool.query(
      'update connectors set secrets = set_byte(secrets, 30, get_byte(secrets, 30) # 1), updated_at = clock_timestamp() where key = $1',
      [connector.key],
    );
    const row = await requireConnector(t.services, aliceId, connector.key);
    await expect(withBrokerSession(t.services, row, async () => 'never')).rejects.toThrow(UNREADABLE_SECRETS_MESSAGE);
    expect((await requireConnector(t.services, aliceId, connector.key)).isActive).toBe(true);
  });
});
