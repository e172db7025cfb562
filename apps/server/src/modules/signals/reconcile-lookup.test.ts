// Reconciliation drills against brokers that find an order again by our client order id, only by
// their own id, or not at all: what is found gets its status, what is proven absent fails and
// releases the credit, what the broker cannot tell stays 'unknown' with its credit held and a
// message for the user, and nothing is ever sent twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  balanceOf,
  eventually,
  FLAKY_TITLE,
  type FlakyBroker,
  flakyBroker,
  postSignal,
  setupTrader,
  signalRows,
} from '../../../test/signal-fixtures.ts';

let t: TestApp;
const byClientId = flakyBroker({ name: 'flaky_client', knows: 'clientId' });
const byBrokerId = flakyBroker({ name: 'flaky_broker', knows: 'brokerId' });
const blind = flakyBroker({ name: 'flaky_blind', knows: 'nothing' });
const byTerms = flakyBroker({ name: 'flaky_terms', knows: 'terms' });
beforeAll(async () => {
  t = await startTestApp({ brokers: [byClientId.broker, byBrokerId.broker, blind.broker, byTerms.broker] });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const UNCONFIRMED = `${FLAKY_TITLE}: the order's outcome could not be confirmed; check your ${FLAKY_TITLE} account`;

/** Two signals whose answers are lost: the first reached the broker, the second never did. */
async function lostSignals(flaky: FlakyBroker, email: string) {
  const trader = await setupTrader(t, email, { provider: flaky.broker.descriptor.name });
  flaky.mode = 'unknown';
  const reached = (await postSignal(t, trader.shortKey, BUY)).json().id as string;
  flaky.mode = 'lost';
  const neverSent = (await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 })).json().id as string;
  flaky.mode = 'fill';
  await eventually(async () => (await signalRows(t, trader.userId)).every((s) => s.status === 'unknown'));
  expect(await balanceOf(t, trader.userId)).toBe(3);
  return { trader, reached, neverSent };
}

/** One signal the by-terms broker loses (placed, never answered), then a reconciliation round. */
async function loseAndReconcile(trader: { shortKey: string; userId: number }, order: Record<string, unknown>) {
  byTerms.mode = 'lost';
  const lost = (await postSignal(t, trader.shortKey, order)).json().id as string;
  byTerms.mode = 'fill';
  await eventually(async () => (await signalRows(t, trader.userId)).some((s) => s.status === 'unknown'));
  await t.app.signalRuntime.reconcile(0);
  return { lost, rows: await signalRows(t, trader.userId) };
}

describe('reconciliation by the strongest lookup the broker has', () => {
  it('by client order id: the order found gets its status, the one never sent fails and frees its credit', async () => {
    const { trader, reached, neverSent } = await lostSignals(byClientId, 'client-id@example.com');
    await t.app.signalRuntime.reconcile(0);
    const rows = await signalRows(t, trader.userId);
    expect(rows.find((s) => s.id === reached)).toMatchObject({ status: 'filled', credit_held: true });
    expect(rows.find((s) => s.id === neverSent)).toMatchObject({ status: 'failed', credit_held: false });
    expect(await balanceOf(t, trader.userId)).toBe(4);
    expect(byClientId.calls.placeOrder).toBe(2);
  });

  it('only by broker id: found when the row knows that id, else unknown with a message, credit held', async () => {
    const { trader, reached, neverSent } = await lostSignals(byBrokerId, 'broker-id@example.com');
    const brokerId = byBrokerId.orders.get(reached)?.id;
    await t.services.db.$client.query('update signals set broker_order_id = $2 where id = $1', [reached, brokerId]);
    await t.app.signalRuntime.reconcile(0);
    const rows = await signalRows(t, trader.userId);
    expect(rows.find((s) => s.id === reached)).toMatchObject({ status: 'filled', broker_order_id: brokerId });
    expect(rows.find((s) => s.id === neverSent)).toMatchObject({
      status: 'unknown',
      credit_held: true,
      response: { id: neverSent, status: 'accepted', status_description: UNCONFIRMED },
    });
    expect(await balanceOf(t, trader.userId)).toBe(3);
    // Settled for reconciliation: not asked about again, never sent again; a repeat gets the message.
    const lookups = byBrokerId.calls.lookups;
    await t.app.signalRuntime.reconcile(0);
    expect(byBrokerId.calls.lookups).toBe(lookups);
    const repeat = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 });
    expect(repeat.json()).toEqual({ id: neverSent, status: 'accepted', status_description: UNCONFIRMED });
    expect(byBrokerId.calls.placeOrder).toBe(2);
  });

  it('by terms: the order of an earlier alike signal is not taken for a lost one that never reached the broker', async () => {
    const trader = await setupTrader(t, 'terms@example.com', { provider: byTerms.broker.descriptor.name });
    const answered = (await postSignal(t, trader.shortKey, { ...BUY, client_id: 'first' })).json();
    expect(answered).toMatchObject({ id: 'FB-1', status: 'filled' });
    const { lost, rows } = await loseAndReconcile(trader, { ...BUY, client_id: 'second' });
    expect(rows.find((s) => s.id === lost)).toMatchObject({
      status: 'failed',
      broker_order_id: null,
      credit_held: false,
    });
    expect(byTerms.calls.placeOrder).toBe(2);
  });

  it("by terms: one order that two lost alike signals both match is neither one's: both unknown, credits held", async () => {
    const trader = await setupTrader(t, 'terms-both@example.com', { provider: byTerms.broker.descriptor.name });
    byTerms.orders.clear(); // the broker lists only this trader's orders
    byTerms.mode = 'unknown';
    const reached = (await postSignal(t, trader.shortKey, { ...BUY, client_id: 'one' })).json().id as string;
    byTerms.mode = 'lost';
    const neverSent = (await postSignal(t, trader.shortKey, { ...BUY, client_id: 'two' })).json().id as string;
    byTerms.mode = 'fill';
    await eventually(async () => (await signalRows(t, trader.userId)).every((s) => s.status === 'unknown'));
    await t.app.signalRuntime.reconcile(0);
    const rows = await signalRows(t, trader.userId);
    for (const id of [reached, neverSent]) {
      expect(rows.find((s) => s.id === id)).toMatchObject({
        status: 'unknown',
        broker_order_id: null,
        credit_held: true,
      });
    }
  });

  it('by terms, across passes: a lost signal never takes the order an alike signal still unresolved may own', async () => {
    const trader = await setupTrader(t, 'terms-apart@example.com', { provider: byTerms.broker.descriptor.name });
    byTerms.orders.clear();
    byTerms.mode = 'unknown';
    const reached = (await postSignal(t, trader.shortKey, { ...BUY, client_id: 'one' })).json().id as string;
    byTerms.mode = 'lost';
    const neverSent = (await postSignal(t, trader.shortKey, { ...BUY, client_id: 'two' })).json().id as string;
    byTerms.mode = 'fill';
    await eventually(async () => (await signalRows(t, trader.userId)).every((s) => s.status === 'unknown'));
    // Another instance holds the one that reached the broker: this pass looks up the other alone.
    const lease = 'update signals set lease_owner = $2, lease_until = $3 where id = $1';
    await t.services.db.$client.query(lease, [reached, 'elsewhere', new Date(Date.now() + 60_000)]);
    await t.app.signalRuntime.reconcile(0);
    await t.services.db.$client.query(lease, [reached, null, null]);
    await t.app.signalRuntime.reconcile(0);
    const rows = await signalRows(t, trader.userId);
    for (const id of [reached, neverSent]) {
      expect(rows.find((s) => s.id === id)).toMatchObject({
        status: 'unknown',
        broker_order_id: null,
        credit_held: true,
      });
    }
    expect(await balanceOf(t, trader.userId)).toBe(3);
  });

  // Two users connected to one broker account: the other user's order with the same terms was
  // taken for this user's lost signal (filled, credit spent, the other's order id on its row).
  it("by terms: another user's order on the same broker account is not taken for a lost signal", async () => {
    const provider = byTerms.broker.descriptor.name;
    const other = await setupTrader(t, 'terms-shared-a@example.com', { provider });
    const trader = await setupTrader(t, 'terms-shared-b@example.com', { provider });
    byTerms.orders.clear();
    const sevens = { ...BUY, quantity: 7 };
    expect((await postSignal(t, other.shortKey, sevens)).json()).toMatchObject({ status: 'filled' });
    const { lost, rows } = await loseAndReconcile(trader, sevens);
    expect(rows.find((s) => s.id === lost)).toMatchObject({
      status: 'failed',
      broker_order_id: null,
      credit_held: false,
    });
  });

  it('a broker that cannot look orders up: both unknown, credits held, the broker not asked', async () => {
    const { trader, reached, neverSent } = await lostSignals(blind, 'blind@example.com');
    await t.app.signalRuntime.reconcile(0);
    const rows = await signalRows(t, trader.userId);
    for (const id of [reached, neverSent]) {
      expect(rows.find((s) => s.id === id)).toMatchObject({
        status: 'unknown',
        credit_held: true,
        response: { status_description: UNCONFIRMED },
      });
    }
    expect(await balanceOf(t, trader.userId)).toBe(3);
    expect([blind.calls.lookups, blind.calls.placeOrder]).toEqual([0, 2]);
  });
});
