// A broker that misbehaves, over real HTTP (the Alpaca protocol fake behind a fault proxy): slow
// beyond the deadline, never answering (with and without having taken the order), answering 5xx
// (with and without), dropping the connection after taking the order. The sender always gets an
// answer by the deadline (201 'accepted' when the broker has not said), and afterwards the books
// show exactly one order for every signal the broker took and a returned credit for the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitSettled } from './books.ts';
import { type Drill, drillBooks, startDrill } from './drill.ts';
import { type FaultBroker, type FaultMode, startFaultBroker } from './fault-broker.ts';
import { order, post, type Sent } from './load.ts';

const DEADLINE_MS = 600;
const PER_MODE = 8;
let broker: FaultBroker;
let drill: Drill;
const replies: Sent[] = [];

beforeAll(async () => {
  broker = await startFaultBroker();
  drill = await startDrill(
    { ALPACA_BASE_URL: broker.url, HOOK_DEADLINE_MS: String(DEADLINE_MS), HOOK_RECONCILE_AFTER_MS: '2000' },
    { provider: 'alpaca', credentials: broker.credentials },
  );
});
afterAll(async () => {
  await drill?.close();
  await broker?.close();
});

/** Sends PER_MODE distinct signals (tagged with the mode) at once, and each twice more later. */
async function burst(mode: FaultMode, delayMs = 0): Promise<Sent[]> {
  broker.mode = mode;
  broker.delayMs = delayMs;
  const [live] = drill.trader.hooks as [string];
  const answers = await Promise.all(
    Array.from({ length: PER_MODE }, (_, n) => post(drill.server.url, live, order(mode, n))),
  );
  replies.push(...answers);
  return answers;
}

/** Every answer came by the deadline (with slack for a loaded machine) and was a 201. */
function expectAnsweredInTime(answers: Sent[], status = 'accepted') {
  for (const a of answers) {
    expect(a.status).toBe(201);
    expect((a.body as { status: string }).status).toBe(status);
    expect(a.ms).toBeLessThan(DEADLINE_MS + 1_500);
  }
}

describe('broker faults', () => {
  it('answers every signal by the deadline whatever the broker does', async () => {
    expectAnsweredInTime(await burst('hang'));
    expectAnsweredInTime(await burst('hang-after-accept'));
    expectAnsweredInTime(await burst('slow', DEADLINE_MS + 1_000));
    expectAnsweredInTime(await burst('error-5xx'));
    expectAnsweredInTime(await burst('error-after-accept'));
    expectAnsweredInTime(await burst('drop-after-accept'));
    broker.mode = 'pass';
    expectAnsweredInTime(await burst('pass'), 'accepted'); // Alpaca's own: accepted, filled right after
  });

  it('a resend while the outcome is pending places nothing', async () => {
    const [live] = drill.trader.hooks as [string];
    for (const mode of ['hang-after-accept', 'drop-after-accept', 'error-5xx'] as const) {
      const again = await Promise.all(
        Array.from({ length: PER_MODE }, (_, n) => post(drill.server.url, live, order(mode, n))),
      );
      replies.push(...again);
      for (const a of again) expect(a.status).toBeLessThan(500);
    }
  });

  it('reconciles by client order id: one order per signal the broker took, none for the rest', async () => {
    const sql = drill.server.sql();
    // 'hang' ends at the broker client's own 10 s timeout, then reconciliation asks.
    await waitSettled(sql, drill.trader.userId, 60_000);
    const { rows } = await sql.query<{ mode: string; status: string; kept: boolean; n: string }>(
      `select regexp_replace("order"->>'client_id', '-[0-9]+$', '') as mode,
         status, credit_held as kept, count(*) as n
       from signals where user_id = $1 group by 1, 2, 3 order by 1`,
      [drill.trader.userId],
    );
    const outcome = Object.fromEntries(
      rows.map((r) => [`${r.mode} ${r.status} ${r.kept ? 'kept' : 'released'}`, Number(r.n)]),
    );
    console.info('broker faults, signals by mode:', JSON.stringify(outcome), 'proxy saw', JSON.stringify(broker.seen));
    const books = await drillBooks(drill, broker.orderIds, replies);
    console.info('broker faults:', JSON.stringify(books));
    expect(books.problems).toEqual([]);
    const took = ['hang-after-accept', 'slow', 'error-after-accept', 'drop-after-accept', 'pass'];
    expect(books.liveKept).toBe(took.length * PER_MODE);
    expect(books.liveReleased).toBe(2 * PER_MODE); // 'hang' and 'error-5xx': the broker has nothing
  });
});
