import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { flakyBroker, postSignal, setupTrader } from '../../test/signal-fixtures.ts';

const TOKEN = 'metrics-token-0123456789';
const flaky = flakyBroker();
const logLines: Array<Record<string, unknown>> = [];
let t: TestApp;
let closed: TestApp;

beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
  [t, closed] = await Promise.all([
    startTestApp({ env: { METRICS_TOKEN: TOKEN, HOOK_RATE_PER_HOOK: '0' }, brokers: [flaky.broker], log }),
    startTestApp(),
  ]);
});
afterAll(() => Promise.all([t?.close(), closed?.close()]));

const scrape = (authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** `name{labels} value` lines of the exposition, as a map. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\S+) (\S+)$/.exec(line);
    if (match && !line.startsWith('#')) out.set(match[1] as string, Number(match[2]));
  }
  return out;
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const res = await closed.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
  });

  it('refuses a missing or wrong token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
  });

  it('counts signals by broker and outcome, broker errors by kind, phases, backlog, pool and process', async () => {
    const trader = await setupTrader(t, 'metrics@example.com', { provider: 'flaky', credits: 10 });
    flaky.mode = 'fill';
    expect((await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).statusCode).toBe(201);
    flaky.mode = 'refuse';
    const refused = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 2 });
    expect(refused.statusCode).toBe(400);
    expect((await postSignal(t, trader.shortKey, { action: 'buy' })).statusCode).toBe(400);
    expect((await postSignal(t, 'AAAAAAAAAAAAAAAAAAAAAA', { action: 'buy' })).statusCode).toBe(404);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const s = samples(res.body);
    expect(s.get('router_signals_total{broker="flaky",outcome="filled"}')).toBe(1);
    expect(s.get('router_signals_total{broker="flaky",outcome="ExecutionError"}')).toBe(1);
    expect(s.get('router_signals_total{broker="flaky",outcome="ValidationError"}')).toBe(1);
    expect(s.get('router_hook_answers_total{code="201"}')).toBe(1);
    expect(s.get('router_hook_answers_total{code="400"}')).toBe(2);
    expect(s.get('router_hook_answers_total{code="404"}')).toBe(1);
    expect(s.get('router_broker_errors_total{broker="flaky",kind="InsufficientFunds"}')).toBe(1);
    // Phase histograms come from the hook's own timings: two stored signals, cumulative buckets.
    expect(s.get('router_hook_phase_seconds_count{phase="store"}')).toBe(2);
    expect(s.get('router_hook_phase_seconds_bucket{le="+Inf",phase="store"}')).toBe(2);
    expect(s.get('router_hook_phase_seconds_count{phase="parse"}')).toBe(3);
    expect(s.get('router_hook_phase_seconds_bucket{le="0.000001",phase="own"}')).toBe(0);
    expect(s.has('router_signals_unfinished')).toBe(true);
    expect(s.get('router_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(s.has('router_db_pool_connections{state="waiting"}')).toBe(true);
    expect(s.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(s.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('reads the reconciliation backlog at scrape time', async () => {
    const backlog = async () => samples((await scrape(`Bearer ${TOKEN}`)).body).get('router_signals_unfinished') ?? -1;
    // The signals of the test above may still be on their way (outcomes are written after the answer).
    await vi.waitFor(
      async () => {
        const { rows } = await t.services.db.$client.query(`select 1 from signals where status = 'placing'`);
        expect(rows).toHaveLength(0);
      },
      { timeout: 10_000 },
    );
    const before = await backlog();
    await t.services.db.$client.query(
      `insert into signals (id, user_id, connector_id, account_id, provider_name, status)
       values ('backlog-1', 1, 1, 'A', 'flaky', 'unknown'), ('backlog-2', 1, 1, 'A', 'flaky', 'filled')`,
    );
    expect(await backlog()).toBe(before + 1);
  });

  it("logs the broker's refusal at info, with its kind and without a stack", () => {
    const refusal = logLines.find((line) => line.msg === 'broker call failed');
    expect(refusal).toMatchObject({ level: 30, broker: 'flaky', kind: 'InsufficientFunds' });
    expect(JSON.stringify(refusal)).not.toMatch(/stack|"err"/);
  });
});
