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
