// The credit ledger across a SIGKILL: a trader with plan credits and one-time credits spends
// them under load, the server is killed mid-load and restarted on the same DATA_DIR, the load
// goes on until the credits run out. The books (books.ts) then hold, the ledger's included:
// the balance is the ledger's sum with every balance_after the running sum, each live signal
// has one spend row and each released one a refund; the plan credits went first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client.ts';
import { startCreditPeriod } from '../../src/modules/accounts/credits.ts';
import { checkBooks, paperOrderIds, waitSettled } from './books.ts';
import { type Drill, startDrill } from './drill.ts';
import { order, post, type Sent, startLoad } from './load.ts';
import { balanceOf } from './trader.ts';

let drill: Drill;
const RECONCILE = { HOOK_RECONCILE_AFTER_MS: '2000' };
const ONE_TIME = 150;
const PLAN = 150;

beforeAll(async () => {
  drill = await startDrill(RECONCILE, { balance: ONE_TIME });
});
afterAll(() => drill?.close());

describe('credits across a SIGKILL', () => {
  it('keeps balance = ledger sum, plan credits spent first, until the credits run out', async () => {
    const [live] = drill.trader.hooks as [string];
    const { userId } = drill.trader;
    await createDatabase(drill.server.sql()).transaction((tx) =>
      startCreditPeriod(tx, userId, {
        credits: PLAN,
        periodEnd: new Date(Date.now() + 30 * 86_400_000),
        reference: 'in_drill',
      }),
    );
    const balanceBefore = await balanceOf(drill.server.sql(), userId);
    expect(balanceBefore).toBe(ONE_TIME + PLAN);

    const before = drill.server;
    const load = startLoad({
      url: before.url,
      shortKey: live,
      workers: 16,
      maxMs: 20_000,
      maxRequests: 2_000,
      body: (n) => order('credits', n),
    });
    for (let i = 0; i < 200 && load.replies.length < 100; i++) await new Promise((r) => setTimeout(r, 25));
    await before.kill();
    load.stop();
    await load.done;
    const sentBeforeKill = load.replies.length + load.failures;
    expect(load.replies.length).toBeGreaterThan(50);

    drill.server = await before.restart(RECONCILE);
    const sql = drill.server.sql();
    // Until the credits run out (in-flight signals the restart settles may give some back), and
    // one batch more: the batch that used them up may have used them up exactly, refusing none.
    const after: Sent[] = [];
    let spentOut = false;
    for (let n = sentBeforeKill + 16; n < 2_100; n += 25) {
      const wasSpentOut = spentOut;
      const batch = Array.from({ length: 25 }, (_, i) => post(drill.server.url, live, order('credits', n + i)));
      after.push(...(await Promise.all(batch)));
      await waitSettled(sql, userId, 30_000);
      spentOut = (await balanceOf(sql, userId)) === 0;
      if (wasSpentOut) break;
    }
    const refused = after.filter((r) => r.status === 400);
    expect(refused.length).toBeGreaterThan(0);
    expect(JSON.stringify(refused[0]?.body)).toMatch(/signals left/i);

    const books = await checkBooks({
      sql,
      userId,
      brokerOrderIds: await paperOrderIds(sql, drill.trader.accountId),
      balanceBefore,
      replies: [...load.replies, ...after],
    });
    const { rows: spends } = await sql.query<{ recurring: number }>(
      `select recurring from credit_ledger where user_id = $1 and cause = 'signal' order by created_at, id`,
      [userId],
    );
    console.info(
      'credits-kill:',
      JSON.stringify({
        answeredBeforeKill: load.replies.length,
        unanswered: load.failures,
        afterRestart: after.length,
        refused: refused.length,
        spendRows: spends.length,
        ...books,
      }),
    );
    expect(books.problems).toEqual([]);
    expect(books.liveKept).toBe(ONE_TIME + PLAN);
    // The plan's credits were all taken before the first one-time credit.
    const firstOneTime = spends.findIndex((s) => s.recurring === 0);
    expect(spends.slice(0, firstOneTime).every((s) => s.recurring === -1)).toBe(true);
    expect(spends.filter((s) => s.recurring === -1).length).toBeGreaterThanOrEqual(PLAN);
  });
});
