// findOrder's route choice and what each answer proves, on brokers made of the primitives alone.
import type { Order, OrderResponse } from '@router/orders';
import { describe, expect, it } from 'vitest';
import type { Broker, BrokerContext, BrokerSession } from './broker.ts';
import { type BrokerCapabilities, NO_CAPABILITIES } from './capabilities.ts';
import { findOrder, orderIdToCancel } from './find-order.ts';
import type { ListedOrder, OrderLookup, RecentOrdersQuery } from './lookup.ts';

const ctx: BrokerContext = { baseUrl: '' };
const session: BrokerSession = { secrets: {}, accounts: [{ id: 'A-1', name: 'A', demo: true }] };
const ORDER: OrderResponse = { id: 'B-7', status: 'filled', price: 10 };
const BUY: Order = {
  symbol: 'AAPL',
  class: 'stock',
  action: 'buy',
  quantity: 1,
  quantity_type: 'fixed',
  type: 'market',
  duration: 'day',
};
const SENT = Date.UTC(2026, 10, 2, 15);

interface Stub {
  has: Partial<BrokerCapabilities>;
  keepsClientId?: boolean;
  /** The broker takes the client id but never returns it. */
  echoed?: boolean;
  byClientId?: OrderResponse | null;
  byBrokerId?: OrderResponse | null;
  listed?: ListedOrder[] | null;
}

function stub(options: Stub) {
  const calls: string[] = [];
  const queries: RecentOrdersQuery[] = [];
  const broker: Broker = {
    descriptor: {
      name: 'stub',
      title: 'Stub',
      status: 'active',
      authentication: { type: 'credentials', credentials: [] },
      reference: {},
      has: { ...NO_CAPABILITIES, ...options.has },
      clientOrderId:
        options.keepsClientId === false
          ? null
          : { maxLength: 20, pattern: '^.+$', ...(options.echoed === false ? { echoed: false } : {}) },
    },
    connect: () => Promise.reject(new Error('not used')),
    placeOrder: () => Promise.reject(new Error('not used')),
    findByClientId: async () => {
      calls.push('client');
      return options.byClientId ?? null;
    },
    findByBrokerId: async () => {
      calls.push('broker');
      return options.byBrokerId ?? null;
    },
    listRecentOrders: async (_ctx, _session, query) => {
      calls.push('list');
      queries.push(query);
      return options.listed === undefined ? [] : options.listed;
    },
  };
  return { broker, calls, queries };
}

const lookup = (fields: Partial<OrderLookup> = {}): OrderLookup => ({
  accountId: 'A-1',
  clientOrderId: 'S-1',
  ...fields,
});

describe('findOrder', () => {
  it('asks by client order id first: found is exact, not found proves none', async () => {
    const found = stub({ has: { findOrderByClientId: true, findOrderByBrokerId: true }, byClientId: ORDER });
    expect(await findOrder(found.broker, ctx, session, lookup({ brokerOrderId: 'B-7' }))).toEqual({
      match: 'exact',
      order: ORDER,
    });
    expect(found.calls).toEqual(['client']);
    const none = stub({ has: { findOrderByClientId: true } });
    expect(await findOrder(none.broker, ctx, session, lookup())).toEqual({ match: 'none' });
  });

  it('not found by our id while the broker named its own id for the order: that id is asked, and none is never proven', async () => {
    const byBoth = stub({ has: { findOrderByClientId: true, findOrderByBrokerId: true }, byBrokerId: ORDER });
    expect(await findOrder(byBoth.broker, ctx, session, lookup({ brokerOrderId: 'B-7' }))).toEqual({
      match: 'exact',
      order: ORDER,
    });
    expect(byBoth.calls).toEqual(['client', 'broker']);
    const byClient = stub({ has: { findOrderByClientId: true, listRecentOrders: true } });
    expect(await findOrder(byClient.broker, ctx, session, lookup({ brokerOrderId: 'B-7' }))).toEqual({
      match: 'unknown',
      reason: 'Stub does not find its own order B-7 by our id',
    });
  });

  it('a cancel or close signal not found by our id is unknown: what it sent may carry no id of ours', async () => {
    const cancel: Order = { ...BUY, action: 'cancel', quantity: undefined };
    const none = stub({ has: { findOrderByClientId: true } });
    expect(await findOrder(none.broker, ctx, session, lookup({ order: cancel, sentAt: SENT }))).toEqual({
      match: 'unknown',
      reason: 'Stub may keep no id of ours on what a cancel signal sends',
    });
    expect(
      await findOrder(none.broker, ctx, session, lookup({ order: { ...BUY, action: 'close', quantity: 1 } })),
    ).toEqual({ match: 'unknown', reason: 'Stub may keep no id of ours on what a close signal sends' });
    const found = stub({ has: { findOrderByClientId: true }, byClientId: ORDER });
    expect(await findOrder(found.broker, ctx, session, lookup({ order: cancel }))).toEqual({
      match: 'exact',
      order: ORDER,
    });
  });

  it('by broker id: found is exact, not found is unknown (the broker gave us that id)', async () => {
    const found = stub({ has: { findOrderByBrokerId: true }, byBrokerId: ORDER });
    expect(await findOrder(found.broker, ctx, session, lookup({ brokerOrderId: 'B-7' }))).toEqual({
      match: 'exact',
      order: ORDER,
    });
    const gone = stub({ has: { findOrderByBrokerId: true } });
    expect(await findOrder(gone.broker, ctx, session, lookup({ brokerOrderId: 'B-7' }))).toEqual({
      match: 'unknown',
      reason: 'Stub does not know its own order B-7',
    });
  });

  it('without a route that can prove anything: unknown, and the broker is not asked', async () => {
    const byId = stub({ has: { findOrderByBrokerId: true } });
    expect(await findOrder(byId.broker, ctx, session, lookup())).toEqual({
      match: 'unknown',
      reason: 'Stub cannot look an order up without its order id',
    });
    const nothing = stub({ has: {} });
    expect(await findOrder(nothing.broker, ctx, session, lookup({ brokerOrderId: 'B-7' }))).toMatchObject({
      match: 'unknown',
    });
    expect([...byId.calls, ...nothing.calls]).toEqual([]);
  });

  it('lists the window around the send time: our echoed id is exact', async () => {
    const listing = stub({
      has: { listRecentOrders: true },
      listed: [
        { order: { id: 'B-1', status: 'accepted' }, match: 'terms' },
        { order: ORDER, match: 'id' },
      ],
    });
    expect(await findOrder(listing.broker, ctx, session, lookup({ sentAt: SENT, order: BUY }))).toEqual({
      match: 'exact',
      order: ORDER,
    });
    expect(listing.queries[0]).toMatchObject({ from: SENT - 60_000, to: SENT + 300_000, order: BUY });
  });

  it('one order with the same terms is probable, several are unknown, none proves none', async () => {
    const terms = (ids: string[]) =>
      stub({
        has: { listRecentOrders: true },
        keepsClientId: false,
        listed: ids.map((id) => ({ order: { id, status: 'accepted' }, match: 'terms' })),
      }).broker;
    const sent = lookup({ sentAt: SENT, order: BUY });
    expect(await findOrder(terms(['B-1']), ctx, session, sent)).toEqual({
      match: 'probable',
      order: { id: 'B-1', status: 'accepted' },
    });
    expect(await findOrder(terms(['B-1', 'B-2']), ctx, session, sent)).toEqual({
      match: 'unknown',
      reason: '2 orders at Stub match (B-1, B-2)',
    });
    expect(await findOrder(terms([]), ctx, session, sent)).toEqual({ match: 'none' });
  });

  it('a cancel signal the listing finds no order of is unknown: a cancel sends none with our id', async () => {
    const cancel: Order = { ...BUY, action: 'cancel', quantity: undefined };
    const listing = stub({ has: { listRecentOrders: true }, listed: [] });
    expect(await findOrder(listing.broker, ctx, session, lookup({ sentAt: SENT, order: cancel }))).toEqual({
      match: 'unknown',
      reason: 'Stub keeps no id of ours on what a cancel signal sends',
    });
    const found = stub({ has: { listRecentOrders: true }, listed: [{ order: ORDER, match: 'id' }] });
    expect(await findOrder(found.broker, ctx, session, lookup({ sentAt: SENT, order: cancel }))).toEqual({
      match: 'exact',
      order: ORDER,
    });
  });

  it('an order with the same terms that another signal placed is not ours: only the others count', async () => {
    const listed = (ids: string[]) =>
      stub({
        has: { listRecentOrders: true },
        keepsClientId: false,
        listed: ids.map((id) => ({ order: { id, status: 'filled' }, match: 'terms' })),
      }).broker;
    const sent = lookup({ sentAt: SENT, order: BUY, otherOrderIds: ['B-1'] });
    expect(await findOrder(listed(['B-1']), ctx, session, sent)).toEqual({ match: 'none' });
    expect(await findOrder(listed(['B-1', 'B-2']), ctx, session, sent)).toEqual({
      match: 'probable',
      order: { id: 'B-2', status: 'filled' },
    });
  });

  it('a listing proves nothing without a send time, without terms to compare, or past what the broker lists', async () => {
    const termsOnly = stub({ has: { listRecentOrders: true }, keepsClientId: false });
    for (const partial of [
      lookup({ order: BUY }),
      lookup({ sentAt: SENT }),
      lookup({ sentAt: SENT, order: { ...BUY, action: 'close', quantity: undefined } }),
    ]) {
      expect(await findOrder(termsOnly.broker, ctx, session, partial)).toMatchObject({ match: 'unknown' });
    }
    expect(termsOnly.calls).toEqual([]);
    // A broker taking our id without returning it compares terms too.
    const silent = stub({ has: { listRecentOrders: true }, echoed: false });
    const closing = lookup({ sentAt: SENT, order: { ...BUY, action: 'close', quantity: undefined } });
    expect(await findOrder(silent.broker, ctx, session, closing)).toEqual({
      match: 'unknown',
      reason: "Stub does not return the client order id, and the order's terms cannot be compared",
    });
    expect(silent.calls).toEqual([]);
    const tooOld = stub({ has: { listRecentOrders: true }, listed: null });
    expect(await findOrder(tooOld.broker, ctx, session, lookup({ sentAt: SENT }))).toEqual({
      match: 'unknown',
      reason: 'Stub no longer lists the orders of that time',
    });
  });
});

describe('orderIdToCancel', () => {
  it('takes the broker id, or finds the order exactly by ours', async () => {
    const { broker } = stub({ has: { findOrderByClientId: true }, byClientId: ORDER });
    expect(await orderIdToCancel(broker, ctx, session, { accountId: 'A-1', brokerOrderId: 'B-9' })).toBe('B-9');
    expect(await orderIdToCancel(broker, ctx, session, { accountId: 'A-1', clientOrderId: 'S-1' })).toBe('B-7');
  });

  it('cannot name an order at a broker that keeps no client id, and says which it could not find', async () => {
    const { broker } = stub({
      has: { listRecentOrders: true },
      keepsClientId: false,
      listed: [{ order: ORDER, match: 'terms' }],
    });
    await expect(
      orderIdToCancel(broker, ctx, session, { accountId: 'A-1', clientOrderId: 'S-1' }),
    ).rejects.toMatchObject({
      kind: 'OrderNotFound',
      message: 'Stub: no order with client order id S-1',
    });
    await expect(orderIdToCancel(broker, ctx, session, { accountId: 'A-1' })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
  });
});
