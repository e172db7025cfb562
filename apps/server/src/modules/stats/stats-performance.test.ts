// A year of signals for an active user (100k rows) beside another user's: every stats interval
// and the counters read only the stats indexes (no Seq Scan on signals) and count right.
// Times are logged for the record, not asserted (DESIGN.md: performance is measured by bench/).
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs, insertHook } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { orderCountersQuery, orderStatsQuery, type SignalRange } from '../../db/repositories/stats.repository.ts';
import { addIntervals, truncateUtc } from './buckets.ts';

const ROWS = 100_000;
const END = Date.parse('2025-06-15T10:30:00Z');
/** 100k rows spread evenly over 365 days before END. */
const STEP_S = (365 * 86_400) / ROWS;
const STATS = `query($interval: String!, $createdAtTo: Float) {
  actionsOrderStats(interval: $interval, createdAtTo: $createdAtTo) { createdAt counter counterError counterTest }
}`;
const COUNTERS = `query($createdAtTo: Float) { actionsOrderCounters(createdAtTo: $createdAtTo) { counter counterTest } }`;

let t: TestApp;
let user: { id: number; headers: Record<string, string> };

async function fill(userId: number, rows: number, prefix: string): Promise<void> {
  const hooks = [];
  for (const [i, provider] of ['paper', 'kraken', 'paper', 'coinbase', 'paper'].entries()) {
    hooks.push(await insertHook(t, userId, `${prefix}${i}`, provider));
  }
  await t.services.db.$client.query(
    // Rows as wide as real ones: the body received, the normalized order and the answer.
    `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, is_test, status, created_at,
       request, "order", response, elapsed_ms)
     select $1 || g, $2, ($3::bigint[])[1 + g % 5], ($4::bigint[])[1 + g % 5], 'A1', ($5::text[])[1 + g % 5],
       g % 10 = 0, case when g % 10 = 0 then 'draft' when g % 7 = 0 then 'rejected' else 'filled' end,
       to_timestamp($6::float8 / 1000) - g * ($7::float8 * interval '1 second'),
       jsonb_build_object('symbol', 'AAPL', 'action', 'buy', 'quantity', g % 9 + 1, 'type', 'limit',
         'limit_price', '{{close}} * 0.99', 'client_id', 'tv-' || g, 'comment', repeat('x', 60)),
       jsonb_build_object('symbol', 'AAPL', 'class', 'stock', 'action', 'buy', 'quantity', g % 9 + 1,
         'quantity_type', 'fixed', 'type', 'limit', 'limit_price', 187.12, 'duration', 'gtc'),
       jsonb_build_object('id', 'ord-' || g, 'status', 'filled', 'status_description', 'Filled at the limit',
         'price', 187.12),
       g % 300
     from generate_series(1, $8::int) g`,
    [
      prefix,
      userId,
      hooks.map((h) => h.hookId),
      hooks.map((h) => h.connectorId),
      hooks.map((h) => h.providerName),
      END,
      STEP_S,
      rows,
    ],
  );
}

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  user = await insertTestUser(t.services, 'busy@example.test');
  const other = await insertTestUser(t.services, 'other@example.test');
  await fill(user.id, ROWS, 'p');
  await fill(other.id, 20_000, 'q');
  await t.services.db.$client.query('vacuum analyze signals');
  await gqlAs(t, user.headers, COUNTERS, {}); // warm up: first request compiles and connects
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function expectedTotals(from: number) {
  const { rows } = await t.services.db.$client.query<{ live: number; test: number; errors: number }>(
    `select count(*) filter (where not is_test)::int as live, count(*) filter (where is_test)::int as test,
       count(*) filter (where not is_test and status in ('rejected', 'failed'))::int as errors
     from signals where user_id = $1 and created_at >= to_timestamp($2::float8 / 1000)
       and created_at <= to_timestamp($3::float8 / 1000)`,
    [user.id, from, END],
  );
  return rows[0];
}

async function plan(query: ReturnType<typeof orderStatsQuery>): Promise<string> {
  const { sql, params } = new PgDialect().sqlToQuery(query);
  const { rows } = await t.services.db.$client.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers) ${sql}`,
    params,
  );
  const text = rows.map((row) => row['QUERY PLAN']).join('\n');
  console.info(
    text
      .split('\n')
      .filter((line) => /Execution Time|Scan using/.test(line))
      .join('\n'),
  );
  return text;
}

describe('order stats on a year of signals', () => {
  const bars = { hour: 24, day: 30, week: 8, month: 12 } as const;
  for (const interval of ['hour', 'day', 'week', 'month'] as const) {
    it(`${interval}: index-only, counts right`, async () => {
      const first = addIntervals(truncateUtc(END, interval), interval, 1 - bars[interval]);
      const range: SignalRange = { userId: user.id, from: first, to: END + 1, isGroup: false };
      const explained = await plan(orderStatsQuery(range, interval));
      expect(explained).not.toMatch(/Seq Scan on signals/);
      expect(explained).toMatch(/Index Only Scan using signals_user_stats_idx/);
      expect(explained).toMatch(/Index Only Scan using signals_user_errors_idx/);

      const started = performance.now();
      const { data, errors } = await gqlAs<{
        actionsOrderStats: Array<{ counter: number; counterError: number; counterTest: number }>;
      }>(t, user.headers, STATS, { interval, createdAtTo: END });
      const elapsed = performance.now() - started;
      console.info(`actionsOrderStats(${interval}) over ${ROWS} signals: ${elapsed.toFixed(1)} ms`);
      expect(errors).toBeUndefined();
      const rows = data?.actionsOrderStats ?? [];
      expect(rows).toHaveLength(bars[interval]);
      const sum = (key: 'counter' | 'counterError' | 'counterTest') => rows.reduce((s, r) => s + r[key], 0);
      const totals = await expectedTotals(first);
      expect({ live: sum('counter'), test: sum('counterTest'), errors: sum('counterError') }).toEqual(totals);
      expect(sum('counter')).toBeGreaterThan(0);
    });
  }

  it('counters: index-only, counts right', async () => {
    const range: SignalRange = { userId: user.id, from: END - 86_400_000, to: END + 1, isGroup: true };
    const explained = await plan(orderCountersQuery(range));
    expect(explained).not.toMatch(/Seq Scan on signals/);
    expect(explained).toMatch(/Index Only Scan using signals_user_stats_idx/);
    const started = performance.now();
    const { data } = await gqlAs<{ actionsOrderCounters: Array<{ counter: number; counterTest: number }> }>(
      t,
      user.headers,
      COUNTERS,
      { createdAtTo: END },
    );
    console.info(`actionsOrderCounters over ${ROWS} signals: ${(performance.now() - started).toFixed(1)} ms`);
    const totals = await expectedTotals(END - 86_400_000);
    expect(data?.actionsOrderCounters).toEqual([{ counter: totals?.live, counterTest: totals?.test }]);
  });
});
