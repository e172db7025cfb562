// Notifications across a SIGKILL: signals are placed while the trader's webhook receiver fails,
// so their order.placed / order.filled events wait in the outbox (and some orders are still in
// flight); the server is killed while a delivery is being sent, restarted, and the receiver
// recovers. Every order is told exactly once per event type (one webhook-id each, nothing for
// what was never placed), and every event reaches the receiver after the restart with a valid
// Standard Webhooks signature and is acknowledged once (the one in flight included).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.ts';
import { signalRows, waitSettled } from './books.ts';
import { type Drill, startDrill } from './drill.ts';
import { order, startLoad } from './load.ts';
import { gqlHttp } from './trader.ts';

const ENV = {
  HOOK_RECONCILE_AFTER_MS: '2000',
  ALLOW_PRIVATE_WEBHOOKS: 'true',
  NOTIFICATION_RETRY_SCHEDULE: Array.from({ length: 20 }, () => '1s').join(','),
};

let drill: Drill;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  drill = await startDrill(ENV);
});
afterAll(async () => {
  await drill?.close();
  await receiver?.close();
});

interface EventRow {
  id: string;
  type: string;
  signal_id: string;
  pending: number;
}

const events = async (sql: pg.Pool, userId: number) =>
  (
    await sql.query<EventRow>(
      `select e.id, e.type, e.data->>'signalId' as signal_id,
        (select count(*)::int from notification_deliveries d where d.event_id = e.id and d.status <> 'delivered') as pending
      from notification_events e where e.user_id = $1`,
      [userId],
    )
  ).rows;

async function until(check: () => Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('SIGKILL between the order and its notification', () => {
  it('delivers every event once its server is back, one webhook-id per event', async () => {
    const { trader } = drill;
    const created = await gqlHttp<{ notificationCreate: { secret: string } }>(
      drill.server.url,
      `mutation($k: String!, $a: String!, $m: String!) {
        notificationCreate(connectorKey: $k, accountId: $a, type: 1, metadata: $m) { secret } }`,
      { k: trader.connectorKey, a: trader.accountId, m: JSON.stringify({ url: `${receiver.url}/in` }) },
      trader.token,
    );
    receiver.secret = created.notificationCreate.secret;
    receiver.answer('fail');

    const [live] = trader.hooks as [string];
    const before = drill.server;
    const load = startLoad({
      url: before.url,
      shortKey: live,
      workers: 6,
      maxMs: 20_000,
      maxRequests: 5_000,
      body: (n) => order('notify', n),
    });
    // Kill once orders were placed and their events tried (and failed) at least once, while a
    // delivery is being sent (the receiver holds it unanswered).
    await until(async () => load.replies.length >= 60 && receiver.received.length > 0, 20_000, 'load and attempts');
    receiver.answer('hang');
    const hangingFrom = receiver.received.length;
    await until(async () => receiver.received.length > hangingFrom, 20_000, 'a delivery in flight');
    const inFlight = receiver.received[hangingFrom]?.id;
    await before.kill();
    load.stop();
    await load.done;

    receiver.answer('ok');
    const since = receiver.received.length;
    drill.server = await before.restart(ENV);
    const sql = drill.server.sql();
    await waitSettled(sql, trader.userId, 60_000);
    // A delivery being sent when the server died is due again at once: its round's transaction
    // (the lock that claimed it) ended with the connection.
    await until(
      async () => (await events(sql, trader.userId)).every((e) => e.pending === 0),
      180_000,
      'every delivery done',
    );

    const rows = await signalRows(sql, trader.userId);
    const told = await events(sql, trader.userId);
    // Per signal what its final status reports, once: filled → placed and filled; a signal in
    // flight at the kill that the broker never got → rejected (failed).
    const expected = rows.flatMap((s) =>
      s.status === 'filled'
        ? [`order.placed:${s.id}`, `order.filled:${s.id}`]
        : s.status === 'failed' || s.status === 'rejected'
          ? [`order.rejected:${s.id}`]
          : [],
    );
    expect(told.map((e) => `${e.type}:${e.signal_id}`).sort()).toEqual(expected.sort());
    const placed = rows.filter((s) => s.status === 'filled');
    expect(placed.length).toBeGreaterThanOrEqual(60);

    // After the restart every event reached the receiver, signed, and was acknowledged once.
    const after = receiver.received.slice(since);
    expect(after.every((r) => r.verifyError === null)).toBe(true);
    const acknowledged = after.map((r) => r.id);
    expect(acknowledged).toContain(inFlight);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    expect([...acknowledged].sort()).toEqual(told.map((e) => e.id).sort());
    for (const r of after) {
      const event = told.find((e) => e.id === r.id);
      expect(r.payload).toMatchObject({ type: event?.type, data: { signalId: event?.signal_id } });
    }
    console.info(
      'notifications-kill:',
      JSON.stringify({
        answeredBeforeKill: load.replies.length,
        placed: placed.length,
        statuses: [...new Set(rows.map((s) => s.status))],
        events: told.length,
        attemptsBeforeKill: since,
        deliveredAfterRestart: after.length,
      }),
    );
  }, 300_000);
});
