// POST /api/stripe/webhook: only a body signed with STRIPE_WEBHOOK_SECRET (one of several v1
// signatures, at most 300 s old) is read; everything else is 400 and changes nothing; a signed
// non-event is 400, an unhandled type 200; the secret never reaches the log.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Billing, buy, newCustomer, ofType, postEvent, startBilling, WEBHOOK_SECRET } from '../../test/billing.ts';
import { accountOf, expectBalancedLedger } from '../../test/credit-fixtures.ts';
import { PACK_100 } from '../../test/stripe-fake/catalog.ts';
import { fixtureFile } from '../../test/stripe-fake/fixtures.ts';
import { signedHeader } from '../../test/stripe-fake/webhooks.ts';

let b: Billing;
let logged = '';
const logSink = new Writable({
  write(chunk, _encoding, done) {
    logged += String(chunk);
    done();
  },
});

beforeAll(async () => {
  b = await startBilling({ log: pino({ level: 'debug' }, logSink) });
});
afterAll(() => b?.close());

async function eventRows(): Promise<number> {
  const { rows } = await b.t.services.db.$client.query<{ n: string }>('select count(*) as n from stripe_events');
  return Number(rows[0]?.n);
}

/** A paid pack: the user and its held-back checkout.session.completed. */
async function paidPack(name: string) {
  const user = await newCustomer(b, name);
  const { events } = await buy(b, user.headers, PACK_100);
  return { user, event: ofType(events, 'checkout.session.completed') };
}

describe('Stripe-Signature', () => {
  it('applies a correctly signed event, and refuses every bad signature without a change', async () => {
    const { user, event } = await paidPack('sig');
    const stored = await eventRows(); // the other cases' events, whichever ran before
    const body = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      { header: null }, // missing
      { header: 'garbage' },
      { secret: 'whsec_someone_else' },
      { timestamp: now - 301 }, // older than 300 s
      { header: `t=${now},v0=${signedHeader(body, WEBHOOK_SECRET, now).split('v1=')[1]}` }, // only another scheme
      { body: body.replace('"paid"', '"unpaid"'), header: signedHeader(body, WEBHOOK_SECRET) }, // body changed after signing
    ];
    for (const delivery of refused) {
      const answer = await postEvent(b, event, delivery);
      expect(answer.status, JSON.stringify(delivery)).toBe(400);
      expect(answer.body.received).toBe(false);
    }
    expect(await eventRows()).toBe(stored);
    expect((await accountOf(b.t, user.id))?.balance ?? 0).toBe(0);

    expect((await postEvent(b, event, { timestamp: now - 290 })).status).toBe(200);
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    await expectBalancedLedger(b.t, user.id);
  });

  it('accepts either of two v1 signatures while the secret rotates', async () => {
    const { user, event } = await paidPack('rotation');
    const body = JSON.stringify(event);
    const t = Math.floor(Date.now() / 1000);
    const sig = (secret: string) => signedHeader(body, secret, t).split('v1=')[1];
    const header = `t=${t},v1=${sig('whsec_old_secret_before_rotation')},v1=${sig(WEBHOOK_SECRET)}`;
    expect((await postEvent(b, event, { header })).status).toBe(200);
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
  });

  it('refuses a signed body that is not an event (400) and ignores an unhandled type (200), storing nothing', async () => {
    const before = await eventRows();
    for (const body of [
      '{"hello":"world"}',
      'not json',
      '[]',
      '{"id":"evt_1","object":"event","type":"invoice.paid"}',
    ]) {
      expect((await postEvent(b, null, { body })).status, body).toBe(400);
    }
    const plan = fixtureFile().resources['event.plan.created'];
    const answer = await postEvent(b, plan);
    expect(answer).toEqual({ status: 200, body: { received: true, handled: false } });
    expect(await eventRows()).toBe(before);
  });

  it('never writes the webhook secret or the signature to the log', async () => {
    await postEvent(b, { id: 'evt_x' }, { secret: 'whsec_wrong_one' });
    expect(logged).toContain('stripe webhook refused');
    expect(logged).not.toContain(WEBHOOK_SECRET);
    expect(logged).not.toContain('whsec_wrong_one');
    expect(logged).not.toMatch(/v1=[0-9a-f]{64}/);
    expect(logged).not.toContain(b.env.STRIPE_SECRET_KEY);
  });
});

describe('without STRIPE_WEBHOOK_SECRET', () => {
  it('refuses every event (400)', async () => {
    const plain = await startBilling({ env: { STRIPE_WEBHOOK_SECRET: '' } });
    try {
      const { event } = await (async () => {
        const user = await newCustomer(plain, 'nosecret');
        const { events } = await buy(plain, user.headers, PACK_100);
        return { event: ofType(events, 'checkout.session.completed') };
      })();
      const answer = await postEvent(plain, event);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Stripe webhooks are not configured on this server');
    } finally {
      await plain.close();
    }
  });
});
