// The server SIGKILLed in the middle of a load, then restarted on the same DATA_DIR: every signal
// answered 201 before the kill is still there, the ones in flight are reconciled with the broker
// (found: kept; not found: failed and the credit returned), none is placed twice, and a resend
// of any of them after the restart places nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBooks, paperOrderIds, signalRows, waitSettled } from './books.ts';
import { type Drill, startDrill } from './drill.ts';
import { order, post, type Sent, startLoad } from './load.ts';

let drill: Drill;
const RECONCILE = { HOOK_RECONCILE_AFTER_MS: '2000' };

beforeAll(async () => {
  drill = await startDrill(RECONCILE);
});
afterAll(() => drill?.close());

describe('SIGKILL under load', () => {
  it('keeps every answered signal and reconciles the ones in flight, none twice', async () => {
    const [live] = drill.trader.hooks as [string];
    const before = drill.server;
    const load = startLoad({
      url: before.url,
      shortKey: live,
      workers: 24,
      maxMs: 20_000,
      maxRequests: 20_000,
      body: (n) => order('kill', n),
    });
    // Kill once the load runs at full speed.
    for (let i = 0; i < 200 && load.replies.length < 300; i++) await new Promise((r) => setTimeout(r, 25));
    await before.kill();
    const killedAt = Date.now();
    load.stop();
    await load.done;
    const answeredBefore = load.replies.filter((r) => r.at <= killedAt);
    expect(answeredBefore.length).toBeGreaterThan(100);

    drill.server = await before.restart(RECONCILE);
    const sql = drill.server.sql();
    await waitSettled(sql, drill.trader.userId, 30_000);
    const rows = await signalRows(sql, drill.trader.userId);
    const answeredIds = new Set(answeredBefore.map((r) => (r.body as { id: string }).id));
    const inFlight = rows.filter((s) => !answeredIds.has(s.id) && !answeredIds.has(s.broker_order_id ?? ''));

    // Resend every signal sent before the kill (answered or not): nothing new is placed.
    const resent: Sent[] = [];
    const sentCount = answeredBefore.length + load.failures + 24;
    for (let n = 0; n < sentCount; n += 50) {
      const batch = Array.from({ length: Math.min(50, sentCount - n) }, (_, i) =>
        post(drill.server.url, live, order('kill', n + i)),
      );
      resent.push(...(await Promise.all(batch)));
    }
    await waitSettled(sql, drill.trader.userId, 30_000);
    const books = await checkBooks({
      sql,
      userId: drill.trader.userId,
      brokerOrderIds: await paperOrderIds(sql, drill.trader.accountId),
      balanceBefore: drill.balanceBefore,
      replies: [...load.replies, ...resent],
    });
    console.info(
      'kill-restart:',
      JSON.stringify({
        answeredBeforeKill: answeredBefore.length,
        unanswered: load.failures,
        inFlightAtKill: inFlight.length,
        inFlightStatuses: inFlight.map((s) => s.status),
        ...books,
        problems: books.problems,
      }),
    );
    expect(books.problems).toEqual([]);
    // Every 201 before the kill names a row that is still there (checkBooks), with its order.
    for (const reply of answeredBefore) expect(reply.status).toBe(201);
  });
});
