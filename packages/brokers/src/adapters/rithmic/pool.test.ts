// The order plant's kept session (pool.ts) against the R | Protocol fake: one login for a user's
// later and concurrent calls, trade routes and order updates asked once per session, logged out
// when idle or closed, replaced after Rithmic drops or logs it out, never shared with another
// password, and left usable by a call whose deadline passed.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { WRITTEN_AT } from '../../core/test-clock.ts';
import { createRithmicBroker, type RithmicBroker } from './adapter.ts';
import { rithmicDescriptor } from './descriptor.ts';
import { FAKE_CREDENTIALS, type RithmicFake, startRithmicFake } from './fake.ts';
import { FAKE_ACCOUNT } from './fake-book.ts';
import { listAccounts } from './plant.ts';
import { createPlantPool } from './pool.ts';

const accountId = FAKE_ACCOUNT;
let fake: RithmicFake;
let broker: RithmicBroker;
let ctx: BrokerContext;
let session: BrokerSession;

beforeEach(async () => {
  fake = await startRithmicFake();
  broker = createRithmicBroker();
  ctx = { baseUrl: fake.baseUrl };
  session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
});
afterEach(async () => {
  await broker.close();
  await fake.close();
});

const input = (clientOrderId: string): PlaceOrderInput => ({
  accountId,
  clientOrderId,
  order: normalizeOrderOrThrow(
    { symbol: 'ESH2027', action: 'buy', quantity: 1 },
    { provider: rithmicDescriptor, now: WRITTEN_AT },
  ),
});
/** How many of `name` the fake received since the mark. */
const count = (name: string, since = 0) => fake.requests.slice(since).filter((r) => r.path === `/${name}`).length;

describe('the order plant’s kept session', () => {
  it('logs in once for a user’s concurrent and later calls; routes and order updates asked once', async () => {
    const mark = fake.requests.length;
    const placed = await Promise.all(['c1', 'c2', 'c3'].map((id) => broker.placeOrder(ctx, session, input(id))));
    expect(placed.map((order) => order.status)).toEqual(['filled', 'filled', 'filled']);
    await broker.placeOrder(ctx, session, input('later'));
    const found = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'later', sentAt: Date.now() });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'filled' } });
    expect(fake.book.orders.map((order) => order.fields.user_tag).sort()).toEqual(['c1', 'c2', 'c3', 'later']);

    expect(count('RequestLogin', mark)).toBe(1);
    expect(count('RequestLoginInfo', mark)).toBe(1);
    expect(count('RequestTradeRoutes', mark)).toBe(1);
    expect(count('RequestSubscribeForOrderUpdates', mark)).toBe(1);
    expect(count('RequestNewOrder', mark)).toBe(4);
    expect(count('RequestLogout', mark)).toBe(0);

    await broker.close();
    expect(fake.counts.logouts).toBe(fake.counts.logins);
  });

  it('logs out a session unused for its idle time; the next call logs in again', async () => {
    const pool = createPlantPool(50);
    const mark = fake.requests.length;
    expect(await pool.use(ctx, FAKE_CREDENTIALS, listAccounts)).toHaveLength(1);
    await vi.waitFor(() => expect(count('RequestLogout', mark)).toBe(1), { timeout: 4_000 });
    expect(await pool.use(ctx, FAKE_CREDENTIALS, listAccounts)).toHaveLength(1);
    expect(count('RequestLogin', mark)).toBe(2);
    await pool.close();
    expect(count('RequestLogout', mark)).toBe(2);
  });

  it('is replaced after Rithmic logs it out or drops it', async () => {
    await broker.placeOrder(ctx, session, input('first'));
    const mark = fake.requests.length;
    fake.answerNext({ method: 'SEND', path: '/RequestNewOrder', status: 200, body: { template_id: 77 } });
    expect(await failure(broker.placeOrder(ctx, session, input('logged-out')))).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
    });
    expect(await broker.placeOrder(ctx, session, input('after-logout'))).toMatchObject({ status: 'filled' });
    fake.answerNext({ method: 'SEND', path: '/RequestNewOrder', status: 0 });
    expect(await failure(broker.placeOrder(ctx, session, input('dropped')))).toMatchObject({ outcomeUnknown: true });
    expect(await broker.placeOrder(ctx, session, input('after-drop'))).toMatchObject({ status: 'filled' });
    expect(count('RequestLogin', mark)).toBe(2);
    expect(count('RequestSubscribeForOrderUpdates', mark)).toBe(2);
  });

  it('is not shared with another password, and a refused login is not kept', async () => {
    await broker.placeOrder(ctx, session, input('first'));
    const mark = fake.requests.length;
    const wrong = { ...session, secrets: { ...session.secrets, password: 'wrong horse' } };
    for (const id of ['w1', 'w2'])
      expect(await failure(broker.placeOrder(ctx, wrong, input(id)))).toMatchObject({ kind: 'AuthenticationError' });
    expect(count('RequestLogin', mark)).toBe(2);
    expect(count('RequestNewOrder', mark)).toBe(0);
    expect(await broker.placeOrder(ctx, session, input('again'))).toMatchObject({ status: 'filled' });
    expect(count('RequestLogin', mark)).toBe(2);
  });

  it('stays usable after a call whose deadline passed', async () => {
    await broker.placeOrder(ctx, session, input('first'));
    const mark = fake.requests.length;
    fake.answerNext({ method: 'SEND', path: '/RequestShowOrders', status: 200, body: [] });
    // The deadline passes once the question is at Rithmic (never answered).
    const deadline = new AbortController();
    const asking = failure(broker.findByBrokerId({ ...ctx, signal: deadline.signal }, session, accountId, '1'));
    await vi.waitFor(() => expect(count('RequestShowOrders', mark)).toBe(1), { timeout: 4_000 });
    deadline.abort();
    const late = await asking;
    expect(late).toMatchObject({
      kind: 'BrokerUnavailable',
      message: 'Rithmic: no answer from Rithmic before the deadline',
    });
    expect(await broker.placeOrder(ctx, session, input('next'))).toMatchObject({ status: 'filled' });
    expect(count('RequestLogin', mark)).toBe(0);
  });
});
