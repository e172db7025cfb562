// A dispute (chargeback) of a pack's payment: from its opening the bank holds the money, so the
// pack's unspent credits are held, not spendable; lost, they stay taken; won, they come back;
// each once, whatever Stripe sends twice or out of order. The payment entry tells the dispute as
// it stands (open, won, lost), not as a refund.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Billing, buy, deliverEvents, newCustomer, startBilling, takeEvents } from '../../../test/billing.ts';
import { accountOf, expectBalancedLedger, inTransaction } from '../../../test/credit-fixtures.ts';
import { gql } from '../../../test/identity.ts';
import { PACK_500 } from '../../../test/stripe-fake/catalog.ts';
import { spendCredits } from '../accounts/credits.ts';

let b: Billing;
beforeAll(async () => {
  b = await startBilling();
});
afterAll(() => b?.close());

const PAYMENTS = '{ account { payments { price refunded dispute { status amount } } } }';
interface Entry {
  price: number;
  refunded: number;
  dispute: { status: string; amount: number } | null;
}
const paymentEntry = async (headers: Record<string, string>) =>
  (await gql<{ account: { payments: Entry[] } }>(b.t.app, PAYMENTS, {}, headers)).data?.account.payments[0];
const LEDGER = '{ accountLedger { cause dispute } }';
/** The ledger's reversal and restore entries, oldest first. */
const reversals = async (headers: Record<string, string>) =>
  (
    await gql<{ accountLedger: Array<{ cause: string; dispute: boolean }> }>(b.t.app, LEDGER, {}, headers)
  ).data?.accountLedger
    .filter((e) => e.cause === 'reversal' || e.cause === 'restore')
    .reverse();
const balance = async (userId: number) => (await accountOf(b.t, userId))?.balance;

/** A user who bought a pack of 500 and spent 100 of it: their payment intent. */
async function packBought(name: string) {
  const user = await newCustomer(b, name);
  const { sessionId, events } = await buy(b, user.headers, PACK_500);
  await deliverEvents(b, events);
  await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 100, `${name}-signals`));
  const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
  return { user, intent };
}

describe('a disputed pack', () => {
  it('holds the unspent credits while the dispute is open and gives them back, once, when it is won', async () => {
    const { user, intent } = await packBought('dispute-open-won');
    b.fake.charges.openDispute(intent);
    const opened = takeEvents(b);
    await deliverEvents(b, [...opened, ...opened]);
    expect(await balance(user.id)).toBe(0);
    const paid = (await paymentEntry(user.headers))?.price ?? 0;
    expect(await paymentEntry(user.headers)).toMatchObject({ dispute: { status: 'open', amount: paid } });
    const spent = await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 1, 'while-disputed'));
    expect(spent.ok).toBe(false);
    b.fake.charges.closeDispute(intent, 'won');
    const won = takeEvents(b);
    // The opening delivered again after the win changes nothing.
    await deliverEvents(b, [...won, ...won, ...opened]);
    expect(await balance(user.id)).toBe(400);
    expect(await paymentEntry(user.headers)).toMatchObject({ refunded: 0, dispute: { status: 'won', amount: paid } });
    // The credit history tells the dispute's hold and give-back apart from a refund's.
    expect(await reversals(user.headers)).toEqual([
      { cause: 'reversal', dispute: true },
      { cause: 'restore', dispute: true },
    ]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('holds them once an inquiry (which holds nothing) is escalated to a chargeback', async () => {
    const { user, intent } = await packBought('dispute-escalated');
    b.fake.charges.openInquiry(intent);
    await deliverEvents(b, takeEvents(b));
    expect(await balance(user.id)).toBe(400);
    expect((await paymentEntry(user.headers))?.dispute).toBeNull();
    b.fake.charges.escalateInquiry(intent);
    const escalated = takeEvents(b);
    expect(escalated.map((e) => e.type)).toEqual(['charge.dispute.updated', 'charge.dispute.funds_withdrawn']);
    await deliverEvents(b, escalated);
    expect(await balance(user.id)).toBe(0);
    expect(await paymentEntry(user.headers)).toMatchObject({ dispute: { status: 'open' } });
    b.fake.charges.closeDispute(intent, 'won');
    await deliverEvents(b, takeEvents(b));
    expect(await balance(user.id)).toBe(400);
    await expectBalancedLedger(b.t, user.id);
  });

  it('counts a refund made during an inquiry before the chargeback it escalates to: all the credits taken once', async () => {
    const user = await newCustomer(b, 'dispute-after-refund');
    const { sessionId, events } = await buy(b, user.headers, PACK_500);
    await deliverEvents(b, events);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    // The inquiry (of the whole charge) comes first; a refund of half is still allowed then.
    b.fake.charges.openInquiry(intent);
    const inquiry = takeEvents(b);
    const paid = (await paymentEntry(user.headers))?.price ?? 0;
    b.fake.charges.refund(intent, paid / 2);
    const refunded = takeEvents(b);
    await deliverEvents(b, [...inquiry, ...refunded]);
    expect(await balance(user.id)).toBe(250);
    // The chargeback withdraws its money after the refund, though the dispute was made before it:
    // its share is what the refund left, and nothing is taken twice whatever comes again.
    b.fake.charges.escalateInquiry(intent);
    await deliverEvents(b, [...takeEvents(b), ...refunded, ...inquiry]);
    expect(await balance(user.id)).toBe(0);
    const lines = await expectBalancedLedger(b.t, user.id);
    expect(lines.filter((l) => l.cause === 'reversal').map((l) => l.credits)).toEqual([-250, -250]);
  });

  it('keeps them taken, once, when it is lost', async () => {
    const { user, intent } = await packBought('dispute-open-lost');
    b.fake.charges.openDispute(intent);
    const opened = takeEvents(b);
    await deliverEvents(b, opened);
    expect(await balance(user.id)).toBe(0);
    b.fake.charges.closeDispute(intent, 'lost');
    await deliverEvents(b, [...takeEvents(b), ...opened]);
    expect(await balance(user.id)).toBe(0);
    const entry = await paymentEntry(user.headers);
    expect(entry).toMatchObject({ refunded: entry?.price, dispute: { status: 'lost', amount: entry?.price } });
    const lines = await expectBalancedLedger(b.t, user.id);
    expect(lines.filter((l) => l.cause === 'reversal').map((l) => l.credits)).toEqual([-400]);
    expect(lines.filter((l) => l.cause === 'restore')).toEqual([]);
  });
});
