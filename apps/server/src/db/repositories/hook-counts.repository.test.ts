// maxOrdersPerMinute / maxOrdersPerDay counts taken and given back: giving one back leaves every
// other count, even one taken at the very same instant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { releaseHookCount, takeHookCount } from './hook-counts.repository.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('releaseHookCount', () => {
  it('gives back one of two counts taken at the same instant, not both', async () => {
    const trader = await setupTrader(t, 'same-instant@example.com');
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from hooks where key = $1', [trader.hook.key]);
    const hookId = Number(rows[0]?.id);
    const limits = { perMinute: 2, perDay: null };
    // now() is the transaction's instant: two counts taken in one transaction share it, as two
    // instances' counts taken in the same microsecond (or on a coarse clock) do.
    const client = await pool.connect();
    const taken = [];
    try {
      await client.query('begin');
      taken.push(await takeHookCount(client, hookId, limits), await takeHookCount(client, hookId, limits));
      await client.query('commit');
    } finally {
      client.release();
    }
    const [first, second] = taken;
    if (!first || !('at' in first)) throw new Error(`not counted: ${JSON.stringify(first)}`);
    expect(second).toEqual(first);

    await releaseHookCount(pool, hookId, first.at, 'notStoredSignal00001');
    const counts = await pool.query(
      'select cardinality(recent) as minute, day_count as day from hook_order_counts where hook_id = $1',
      [hookId],
    );
    expect(counts.rows).toEqual([{ minute: 1, day: 1 }]);
    // One count is still held: one more signal fits in the minute, a second does not.
    expect(await takeHookCount(pool, hookId, limits)).toHaveProperty('at');
    expect(await takeHookCount(pool, hookId, limits)).toEqual({ reached: 'minute' });
  });

  it('gives back nothing for a signal stored with its count after all (its store failed only as seen from here)', async () => {
    const trader = await setupTrader(t, 'stored-after-all@example.com');
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string; connector_id: string }>(
      'select id, connector_id from hooks where key = $1',
      [trader.hook.key],
    );
    const hookId = Number(rows[0]?.id);
    const taken = await takeHookCount(pool, hookId, { perMinute: null, perDay: 5 });
    if (!('at' in taken)) throw new Error('not counted');
    // The store committed, but its answer was lost: the signal holds its count, which its
    // outcome (reconciliation finding it never sent) gives back; giving it back here too is twice.
    await pool.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, day_counted_at)
      values ('storedAfterAll000001', $1, $2, $3, 'x', 'paper', 'placing', true, $4)`,
      [trader.userId, hookId, Number(rows[0]?.connector_id), taken.at],
    );
    await releaseHookCount(pool, hookId, taken.at, 'storedAfterAll000001');
    const day = await pool.query('select day_count from hook_order_counts where hook_id = $1', [hookId]);
    expect(day.rows).toEqual([{ day_count: 1 }]);
    // A signal not stored (a repeat, no credit) gives its count back.
    await releaseHookCount(pool, hookId, taken.at, 'neverStored000000001');
    const after = await pool.query('select day_count from hook_order_counts where hook_id = $1', [hookId]);
    expect(after.rows).toEqual([{ day_count: 0 }]);
  });

  // Dated in UTC whatever the hook's dayTimeZone: a repeat's count went back to no day at all
  // while the zone's date was not UTC's, and the day's limit stayed one order short.
  it("gives back to the day of the hook's time zone", async () => {
    const trader = await setupTrader(t, 'release-zone@example.com');
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from hooks where key = $1', [trader.hook.key]);
    const hookId = Number(rows[0]?.id);
    const timeZone = new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const limits = { perMinute: null, perDay: 1, timeZone };
    const taken = await takeHookCount(pool, hookId, limits);
    if (!('at' in taken)) throw new Error('not counted');
    expect(await takeHookCount(pool, hookId, limits)).toEqual({ reached: 'day' });
    await releaseHookCount(pool, hookId, taken.at, 'neverStoredZone00001', { timeZone });
    const day = await pool.query('select day::text, day_count from hook_order_counts where hook_id = $1', [hookId]);
    expect(day.rows).toEqual([
      { day: new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date()), day_count: 0 },
    ]);
  });

  // A futures day starts in the evening (CME's at 17:00 Chicago time): before that hour, the
  // orders count for the day that started the evening before.
  it('dates the day from its start time (dayStartsAt): before it, the day before', async () => {
    const trader = await setupTrader(t, 'release-start@example.com');
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from hooks where key = $1', [trader.hook.key]);
    const hookId = Number(rows[0]?.id);
    // An hour from now (UTC): now is before the day's start, so in the day before.
    const now = new Date();
    const hour = now.getUTCHours();
    const startsAt = hour < 23 ? `${String(hour + 1).padStart(2, '0')}:00` : '23:59';
    const [h = 0, m = 0] = startsAt.split(':').map(Number);
    const expected = new Date(now.getTime() - (h * 60 + m) * 60_000).toISOString().slice(0, 10);
    const limits = { perMinute: null, perDay: 1, timeZone: 'UTC', startsAt };
    const taken = await takeHookCount(pool, hookId, limits);
    if (!('at' in taken)) throw new Error('not counted');
    const day = async () =>
      (await pool.query('select day::text, day_count from hook_order_counts where hook_id = $1', [hookId])).rows;
    expect(await day()).toEqual([{ day: expected, day_count: 1 }]);
    expect(await takeHookCount(pool, hookId, limits)).toEqual({ reached: 'day' });
    await releaseHookCount(pool, hookId, taken.at, 'neverStoredStart0001', limits);
    expect(await day()).toEqual([{ day: expected, day_count: 0 }]);
  });
});
