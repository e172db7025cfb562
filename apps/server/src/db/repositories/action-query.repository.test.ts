// The activity log's look-ups that must not grow with a trader's history: the entries of one
// signal (a notification's link) are found by actions_signal_idx, an old signal's as cheaply as
// the newest's. Counts what one call read, index entries and table rows, over all partitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { measureReads } from '../../../test/row-reads.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { listActions } from './action-query.repository.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(async () => {
  await t.close();
});

const HISTORY = 20_000;

describe("a signal's entries", () => {
  it('are found by their index, however old the signal', async () => {
    const trader = await setupTrader(t, 'link@example.com');
    const other = await setupTrader(t, 'other-link@example.com');
    // Order entries of stored signals, one every 10 ms (all within minutes, so in this month's
    // partition or the default one), plus a repeat of the oldest signal and another user's entry
    // naming it.
    await t.services.db.$client.query(
      `insert into actions (user_id, code, metadata, created_at)
      select $1, 'Order', jsonb_build_object('signalId', 'sig-' || n, 'response', '{}'::jsonb),
        now() - (n * interval '10 ms')
      from generate_series(1, ${HISTORY}) n`,
      [trader.userId],
    );
    await t.services.db.$client.query(
      `insert into actions (user_id, code, metadata, created_at) values
        ($1, 'Order', jsonb_build_object('signalId', 'sig-${HISTORY}', 'request', 'repeat'), now()),
        ($2, 'Order', jsonb_build_object('signalId', 'sig-${HISTORY}'), now())`,
      [trader.userId, other.userId],
    );
    await t.services.db.$client.query('analyze actions');
    for (const signalId of ['sig-1', `sig-${HISTORY}`]) {
      const found = await measureReads(t.services.db, 'actions', (tx) =>
        listActions(tx, { userId: trader.userId, signalId, limit: 50 }),
      );
      const expected = signalId === 'sig-1' ? 1 : 2; // the oldest: its own call and the repeat
      expect(found.value).toHaveLength(expected);
      expect(found.value.every((a) => (a.metadata as { signalId: string }).signalId === signalId)).toBe(true);
      // Without the index, the walk reads the whole history (20,002 for the oldest).
      expect(found.read).toBeLessThan(20);
    }
  });
});

describe('rare results', () => {
  it('rejected and unknown entries are found through their signals, with none in a long history', async () => {
    const trader = await setupTrader(t, 'rare@example.com');
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from connectors where user_id = $1', [trader.userId]);
    const connectorId = rows[0]?.id;
    // A filled history, then (newest) the rare ones: two rejected, one failed, one unknown.
    const statuses = ['rejected', 'failed', 'rejected', 'unknown'];
    await pool.query(
      `with history as (
        select 'rare-' || n as id, now() - (n * interval '10 ms') as at,
          case when n <= 4 then ($3::text[])[n] else 'filled' end as status
        from generate_series(1, ${HISTORY}) n
      ), stored as (
        insert into signals (id, user_id, connector_id, account_id, provider_name, status, created_at)
        select id, $1, $2, 'P-1', 'paper', status, at from history
      )
      insert into actions (user_id, code, metadata, created_at)
      select $1, 'Order', jsonb_build_object('signalId', id, 'response', '{}'::jsonb), at from history`,
      [trader.userId, connectorId, statuses],
    );
    await pool.query('analyze actions, signals');
    const ids = async (result: 'rejected' | 'unknown') => {
      const found = await measureReads(t.services.db, 'actions', (tx) =>
        listActions(tx, { userId: trader.userId, result, limit: 50 }),
      );
      // Without the signals' indexes, the walk reads the whole history (20,000).
      expect(found.read).toBeLessThan(50);
      return found.value.map((a) => (a.metadata as { signalId: string }).signalId);
    };
    expect(await ids('rejected')).toEqual(['rare-1', 'rare-2', 'rare-3']); // newest first
    expect(await ids('unknown')).toEqual(['rare-4']);
    // None at all (every one filled by now): read as cheaply.
    await pool.query(`update signals set status = 'filled' where user_id = $1 and status <> 'filled'`, [trader.userId]);
    expect(await ids('rejected')).toEqual([]);
    expect(await ids('unknown')).toEqual([]);
  });
});
