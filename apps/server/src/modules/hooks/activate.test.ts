// hookActivate: a hook deactivated by invalid requests shows why, and its owner turns it back on;
// the hook endpoint's cache follows (hook_changed), so the next signal is placed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql, HOOK_FIELDS } from '../../../test/connector-fixtures.ts';
import { eventually, paperOrders, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, env: { HOOK_INVALID_THRESHOLD: '3' } });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const ACTIVATE = `mutation($k: String!) { hookActivate(key: $k) { ${HOOK_FIELDS} deactivatedReason } }`;
const READ = `query($k: String!) { hook(key: $k) { isActive deactivatedReason } }`;

async function deactivateByInvalidRequests(shortKey: string) {
  for (let i = 0; i < 3; i++) expect((await postSignal(t, shortKey, { symbol: 'AAPL' })).statusCode).toBe(400);
  // Polled with invalid bodies too: a valid one might be placed before the count lands.
  await eventually(async () =>
    (await postSignal(t, shortKey, { symbol: 'AAPL' })).json().message?.startsWith('Webhook is deactivated'),
  );
}

describe('hookActivate', () => {
  it('shows why a hook was deactivated, reactivates it, and the next signal is placed', async () => {
    const trader = await setupTrader(t, 'reactivate@example.com');
    await deactivateByInvalidRequests(trader.shortKey);
    expect((await gql(t, trader.headers, READ, { k: trader.hook.key })).data).toEqual({
      hook: { isActive: false, deactivatedReason: 'too many invalid requests' },
    });

    const answer = await gql<{ hookActivate: Record<string, unknown> }>(t, trader.headers, ACTIVATE, {
      k: trader.hook.key,
    });
    expect(answer.data?.hookActivate).toMatchObject({
      key: trader.hook.key,
      shortKey: trader.shortKey,
      isActive: true,
      deactivatedReason: null,
    });
    // The cached copy was dropped (hook_changed): the hook places orders again.
    await eventually(async () => (await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 })).statusCode === 201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);

    // The invalid-request window starts afresh: two more invalid requests leave it active.
    for (let i = 0; i < 2; i++) await postSignal(t, trader.shortKey, { symbol: 'AAPL' });
    await eventually(async () => {
      const { rows } = await t.database.pool.query<{ invalid_count: number }>(
        'select invalid_count from hooks where key = $1',
        [trader.hook.key],
      );
      return rows[0]?.invalid_count === 2;
    });
    expect((await gql(t, trader.headers, READ, { k: trader.hook.key })).data).toEqual({
      hook: { isActive: true, deactivatedReason: null },
    });

    const { rows } = await t.database.pool.query<{ metadata: Record<string, unknown> }>(
      "select metadata from actions where user_id = $1 and code = 'HookActivate'",
      [trader.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.metadata).toMatchObject({ shortKey: trader.shortKey, reason: 'too many invalid requests' });
  });

  it('returns an active hook as it is, recording nothing', async () => {
    const trader = await setupTrader(t, 'already@example.com');
    const answer = await gql<{ hookActivate: { isActive: boolean } }>(t, trader.headers, ACTIVATE, {
      k: trader.hook.key,
    });
    expect(answer.data?.hookActivate.isActive).toBe(true);
    const { rows } = await t.database.pool.query("select 1 from actions where user_id = $1 and code = 'HookActivate'", [
      trader.userId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("answers another user's key, or an unknown one, as not found and leaves the hook off", async () => {
    const trader = await setupTrader(t, 'owner@example.com');
    const { headers: mallory } = await insertTestUser(t.services, 'mallory@example.com');
    await deactivateByInvalidRequests(trader.shortKey);
    for (const k of [trader.hook.key, 'no-such-key']) {
      expect((await gql(t, mallory, ACTIVATE, { k })).error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'Hook not found',
      });
    }
    expect((await gql(t, trader.headers, READ, { k: trader.hook.key })).data).toEqual({
      hook: { isActive: false, deactivatedReason: 'too many invalid requests' },
    });
  });

  it("refuses while the hook's account is no longer connected", async () => {
    const trader = await setupTrader(t, 'gone@example.com');
    await deactivateByInvalidRequests(trader.shortKey);
    await t.database.pool.query(`update connectors set accounts = '[]'::jsonb where key = $1`, [trader.connector.key]);
    expect((await gql(t, trader.headers, ACTIVATE, { k: trader.hook.key })).error).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: "This webhook's account is no longer connected: reconnect the broker with that account first",
    });
  });
});
