// A Stripe webhook across a SIGKILL: the server is killed while the event's transaction is
// open (it has claimed the event id and waits for the account's lock, held here), restarted on
// the same DATA_DIR, and Stripe delivers the event again. Nothing of the killed attempt stays;
// the retry books the pack once, its repeat and the invoice.paid of the same payment change
// nothing, and the balance is the ledger's sum.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseUrl } from '../../src/db/embedded-access.ts';
import { PACK_500 } from '../stripe-fake/catalog.ts';
import { stripeEnv } from '../stripe-fake/client.ts';
import { type StripeFake, startStripeFake } from '../stripe-fake/server.ts';
import { ledgerProblems } from './books.ts';
import { type Drill, startDrill } from './drill.ts';
import { balanceOf, gqlHttp } from './trader.ts';

const SECRET = 'whsec_drill_stripe_endpoint';
const START = 10;
let fake: StripeFake;
let drill: Drill;

beforeAll(async () => {
  fake = await startStripeFake({ delivery: 'manual' });
  drill = await startDrill(stripeEnv(fake, SECRET), { balance: START });
  fake.webhooks.endpoint = { url: `${drill.server.url}/api/stripe/webhook`, secret: SECRET };
});
afterAll(async () => {
  await drill?.close();
  await fake?.close();
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

describe('a Stripe webhook across a SIGKILL', () => {
  it('is applied exactly once after Stripe delivers it again', async () => {
    const { userId, token } = drill.trader;
    const { accountPaymentSession } = await gqlHttp<{ accountPaymentSession: { url: string } }>(
      drill.server.url,
      'query($p: String) { accountPaymentSession(stripePriceId: $p) { url } }',
      { p: PACK_500 },
      token,
    );
    const sessionId = accountPaymentSession.url.split('/').at(-1) ?? '';
    fake.checkout.complete(sessionId);
    const events = fake.webhooks.pending.splice(0);
    const completed = events.find((e) => e.type === 'checkout.session.completed');
    if (!completed) throw new Error('no checkout.session.completed');

    // Hold the account's row: the webhook's transaction claims the event, then waits here.
    const holder = new pg.Client({ connectionString: embeddedDatabaseUrl(drill.server.dataDir) });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select 1 from accounts where user_id = $1 for update', [userId]);
    const delivery = fake.webhooks.deliver(completed);
    await until(async () => {
      // Within this transaction PostgreSQL lists pg_stat_activity's sessions as its first read
      // found them (a connection opened later is never seen): cleared, each look is a new one.
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      return (rows[0]?.n ?? 0) > 0;
    }, 'the webhook waits for the account lock');
    await drill.server.kill();
    expect(await delivery).toBe(0); // the connection died: Stripe will deliver it again
    await holder.query('rollback');
    await holder.end();

    drill.server = await drill.server.restart();
    const sql = drill.server.sql();
    const recorded = async () =>
      (await sql.query('select outcome from stripe_events where id = $1', [completed.id])).rows as Array<{
        outcome: string;
      }>;
    expect(await recorded()).toEqual([]);
    expect(await balanceOf(sql, userId)).toBe(START);

    fake.webhooks.endpoint = { url: `${drill.server.url}/api/stripe/webhook`, secret: SECRET };
    expect(await fake.webhooks.deliver(completed)).toBe(200);
    expect(await fake.webhooks.deliver(completed)).toBe(200);
    for (const event of events) expect(await fake.webhooks.deliver(event)).toBe(200);
    expect(await balanceOf(sql, userId)).toBe(START + 500);
    expect(await recorded()).toEqual([{ outcome: 'applied' }]);
    const { rows: purchases } = await sql.query(
      `select credits, reference from credit_ledger where user_id = $1 and cause = 'purchase'`,
      [userId],
    );
    expect(purchases).toEqual([{ credits: 500, reference: sessionId }]);
    const { rows: payments } = await sql.query('select reference from payments where user_id = $1', [userId]);
    expect(payments).toEqual([{ reference: sessionId }]);
    expect(await ledgerProblems(sql, userId, [])).toEqual([]);
  });
});
