// Issue #21 point 4: the chart's refused series and a webhook's calls today and error rate, through
// GraphQL; refused calls are Order entries naming no stored signal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs, insertAction, insertHook, insertSignal, type TestHook } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';

const STATS = `query { actionsOrderStats(interval: "hour", width: 2) { counter counterError counterRefused } }`;
const HEALTH = `query($key: String!, $since: Float) {
  hook(key: $key) { health(since: $since) { calls errors errorRate } }
}`;

let t: TestApp;
let a: { id: number; headers: Record<string, string> };
let b: { id: number; headers: Record<string, string> };
let h1: TestHook & { userId: number };
const now = Date.now();
const ago = (ms: number) => new Date(now - ms);

const refusedCall = (userId: number, hook: TestHook, createdAt: Date) =>
  insertAction(t, {
    userId,
    code: 'Order',
    createdAt: createdAt.toISOString(),
    metadata: {
      hook: { key: `h_x`, shortKey: hook.shortKey, name: 'x' },
      providerName: hook.providerName,
      response: { status: 'ValidationError', message: 'symbol: Required' },
    },
  });

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  a = await insertTestUser(t.services, 'health-a@example.test');
  b = await insertTestUser(t.services, 'health-b@example.test');
  h1 = { ...(await insertHook(t, a.id, 'hh1')), userId: a.id };
  const other = { ...(await insertHook(t, b.id, 'hh2')), userId: b.id };
  await insertSignal(t, h1, { createdAt: ago(1000) });
  await insertSignal(t, h1, { createdAt: ago(2000), status: 'rejected' });
  await insertSignal(t, h1, { createdAt: ago(3000) });
  await refusedCall(a.id, h1, ago(4000));
  // A stored signal's entry is no refusal; another user's refusal is not ours.
  await insertAction(t, {
    userId: a.id,
    code: 'Order',
    createdAt: ago(5000).toISOString(),
    metadata: { signalId: 'x' },
  });
  await refusedCall(b.id, other, ago(1000));
});
afterAll(async () => {
  await t.close();
});

describe('webhook health', () => {
  it('charts refused calls beside placed and rejected ones', async () => {
    const { data, errors } = await gqlAs<{ actionsOrderStats: Array<Record<string, number>> }>(t, a.headers, STATS);
    expect(errors).toBeUndefined();
    const total = (field: string) => data?.actionsOrderStats.reduce((sum, row) => sum + (row[field] ?? 0), 0);
    expect([total('counter'), total('counterError'), total('counterRefused')]).toEqual([3, 1, 1]);
  });

  it("counts a webhook's calls since the start of the day and their error rate", async () => {
    const { data, errors } = await gqlAs<{ hook: { health: unknown } }>(t, a.headers, HEALTH, {
      key: 'h_hh1',
      since: now - 60_000,
    });
    expect(errors).toBeUndefined();
    expect(data?.hook.health).toEqual({ calls: 4, errors: 2, errorRate: 0.5 });
    const later = await gqlAs<{ hook: { health: unknown } }>(t, a.headers, HEALTH, {
      key: 'h_hh1',
      since: now + 3_600_000,
    });
    expect(later.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("takes the start of the trader's day from a browser clock a little ahead of the server's", async () => {
    // Just after the browser's midnight, its day starts after the server's 'now': no calls yet,
    // not an error that leaves the broker's webhooks unloaded.
    const ahead = await gqlAs<{ hook: { health: unknown } }>(t, a.headers, HEALTH, {
      key: 'h_hh1',
      since: Date.now() + 120_000,
    });
    expect(ahead.errors).toBeUndefined();
    expect(ahead.data?.hook.health).toEqual({ calls: 0, errors: 0, errorRate: null });
  });

  it('has no error rate without calls, and shows nobody else', async () => {
    const empty = await gqlAs<{ hook: { health: unknown } }>(t, b.headers, HEALTH, { key: 'h_hh2', since: now - 500 });
    expect(empty.data?.hook.health).toEqual({ calls: 0, errors: 0, errorRate: null });
    const foreign = await gqlAs(t, b.headers, HEALTH, { key: 'h_hh1' });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('a queued call', () => {
  it('is not counted as refused: its signal counts once, when placed', async () => {
    const c = await insertTestUser(t.services, 'health-c@example.test');
    const hook = { ...(await insertHook(t, c.id, 'hq')), userId: c.id };
    // Outside the webhook's trading window: answered 202 'queued', entry naming no signal yet…
    await insertAction(t, {
      userId: c.id,
      code: 'Order',
      createdAt: ago(60_000).toISOString(),
      metadata: {
        hook: { key: 'h_hq', shortKey: hook.shortKey, name: 'hq' },
        providerName: hook.providerName,
        response: { id: 'q1', status: 'queued', status_description: 'Outside this webhook…' },
      },
    });
    // …then placed at the window's opening: its signal and the entry naming it.
    await insertSignal(t, hook, { createdAt: ago(30_000) });
    const stats = await gqlAs<{ actionsOrderStats: Array<Record<string, number>> }>(t, c.headers, STATS);
    const total = (field: string) => stats.data?.actionsOrderStats.reduce((sum, row) => sum + (row[field] ?? 0), 0);
    expect([total('counter'), total('counterError'), total('counterRefused')]).toEqual([1, 0, 0]);
    const health = await gqlAs<{ hook: { health: unknown } }>(t, c.headers, HEALTH, {
      key: 'h_hq',
      since: now - 120_000,
    });
    expect(health.data?.hook.health).toEqual({ calls: 1, errors: 0, errorRate: 0 });
  });
});
