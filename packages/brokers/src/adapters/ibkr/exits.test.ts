// Contract: a close of part of a position keeps the stop loss and take profit protecting the rest,
// cut to what is left (POST /iserver/account/{accountId}/order/{orderId}, WIRE.md §7); a close of
// all of it still cancels the contract's open orders first; a cut IBKR refuses is told, the close
// standing.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { createWireLog } from '../../core/wire-log.ts';
import { ACCOUNT, type Connected, connected, input, sentSince } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  c = await connected();
});
afterAll(() => c.close());
afterEach(() => c.fake.clearInjections());

const place = (signal: Record<string, unknown>) => c.broker.placeOrder(c.ctx, c.session, input(signal));
const ledgerOrder = (id: string) => c.fake.ledger.orders.find((order) => String(order.orderId) === id);
const modifyPath = (id: string) => `/v1/api/iserver/account/${ACCOUNT}/order/${id}`;

describe('close of part of a position', () => {
  it('keeps its exits, each larger than what is left cut to it', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 10 });
    const stop = await place({
      symbol: 'MSFT',
      action: 'sell',
      quantity: 10,
      type: 'stop',
      stop_price: 400,
      duration: 'gtc',
    });
    const profit = await place({ symbol: 'MSFT', action: 'sell', quantity: 10, limit_price: 450, duration: 'gtc' });
    const small = await place({ symbol: 'MSFT', action: 'sell', quantity: 3, limit_price: 460 });
    const dip = await place({ symbol: 'MSFT', action: 'buy', quantity: 10, limit_price: 300 });
    const before = c.fake.requests.length;
    const closed = await place({ symbol: 'MSFT', action: 'close', quantity: 4 });
    expect(closed.status).toBe('filled');
    expect(closed.status_description).toMatch(
      new RegExp(`^Closing 4 of 10 MSFT: .+; exits cut to the 6 left: ${stop.id}, ${profit.id}$`),
    );
    expect(sentSince(c.fake, before).filter((sent) => sent.startsWith('DELETE'))).toEqual([]);
    const modified = c.fake.requests.slice(before).find((r) => r.method === 'POST' && r.url === modifyPath(stop.id));
    expect(JSON.parse(modified?.body ?? '')).toEqual({
      acctId: ACCOUNT,
      conid: 272093,
      orderType: 'STP',
      side: 'SELL',
      price: 400,
      quantity: 6,
      tif: 'GTC',
      outsideRTH: false,
    });
    expect(ledgerOrder(stop.id)).toMatchObject({ status: 'PreSubmitted', quantity: 6, orderType: 'STP', price: 400 });
    expect(ledgerOrder(profit.id)).toMatchObject({ status: 'PreSubmitted', quantity: 6, orderType: 'LMT', price: 450 });
    expect(ledgerOrder(small.id)).toMatchObject({ status: 'PreSubmitted', quantity: 3 });
    expect(ledgerOrder(dip.id)).toMatchObject({ status: 'PreSubmitted', quantity: 10 });
    expect(c.fake.ledger.accounts.get(ACCOUNT)?.positions.get(272093)?.position).toBe(6);
  });

  it('a cut IBKR refuses is told, not thrown: the close stands', async () => {
    await place({ symbol: 'AAPL', action: 'buy', quantity: 10 });
    const stop = await place({
      symbol: 'AAPL',
      action: 'sell',
      quantity: 10,
      type: 'stop',
      stop_price: 150,
      duration: 'gtc',
    });
    c.fake.inject({
      method: 'POST',
      path: modifyPath(stop.id),
      status: 200,
      body: { error: 'Order cannot be modified' },
    });
    const closed = await place({ symbol: 'AAPL', action: 'close', quantity: 4 });
    expect(closed.status).toBe('filled');
    expect(closed.status_description).toMatch(
      /^Closing 4 of 10 AAPL: .+; the open exits could not be cut to the 6 left \(Order cannot be modified\)$/,
    );
    expect(ledgerOrder(stop.id)).toMatchObject({ status: 'PreSubmitted', quantity: 10 });
    expect(c.fake.ledger.accounts.get(ACCOUNT)?.positions.get(265598)?.position).toBe(6);
  });

  it('an exit whose terms IBKR does not list in full is not guessed at: told, left as it was', async () => {
    await place({ symbol: 'SPY', action: 'buy', quantity: 8 });
    const stop = await place({
      symbol: 'SPY',
      action: 'sell',
      quantity: 8,
      type: 'stop_limit',
      stop_price: 450,
      limit_price: 445,
      duration: 'gtc',
    });
    const closed = await place({ symbol: 'SPY', action: 'close', quantity: 2 });
    expect(closed.status_description).toMatch(
      new RegExp(
        `; the open exits could not be cut to the 6 left \\(the terms of order ${stop.id} \\(stop limit, GTC\\) are not all listed\\)$`,
      ),
    );
    expect(ledgerOrder(stop.id)).toMatchObject({ status: 'PreSubmitted', quantity: 8 });
  });
});

describe('close of the whole position', () => {
  it('still cancels the open orders of the contract first', async () => {
    await place({ symbol: 'NVDA', action: 'buy', quantity: 5 });
    const stop = await place({
      symbol: 'NVDA',
      action: 'sell',
      quantity: 5,
      type: 'stop',
      stop_price: 130,
      duration: 'gtc',
    });
    const before = c.fake.requests.length;
    const closed = await place({ symbol: 'NVDA', action: 'close', quantity: 5 });
    expect(closed.status).toBe('filled');
    expect(sentSince(c.fake, before)).toContain(`DELETE ${modifyPath(stop.id)}`);
    expect(ledgerOrder(stop.id)?.status).toBe('Cancelled');
    expect(c.fake.ledger.accounts.get(ACCOUNT)?.positions.has(4815747)).toBe(false);
  });

  it('cancels that fail partway say which exits were canceled and which not, and close nothing', async () => {
    await place({ symbol: 'IBM', action: 'buy', quantity: 3 });
    const exit = (signal: Record<string, unknown>) =>
      place({ symbol: 'IBM', action: 'sell', quantity: 3, duration: 'gtc', ...signal });
    const stop = await exit({ type: 'stop', stop_price: 100 });
    const profit = await exit({ limit_price: 300 });
    c.fake.inject({ method: 'DELETE', path: modifyPath(profit.id), status: 200, body: { error: 'Order is locked' } });
    const error = await brokerFailure(place({ symbol: 'IBM', action: 'close' }));
    expect(error.message).toBe(
      `Interactive Brokers: Order is locked; of the open orders of IBM, only some were canceled: ${stop.id}; not ${profit.id}: check them at the broker`,
    );
    expect(ledgerOrder(profit.id)?.status).toBe('PreSubmitted');
    expect(c.fake.ledger.accounts.get(ACCOUNT)?.positions.get(8314)?.position).toBe(3);
  });
});

describe('close of the whole position right after login', () => {
  it('reads the open orders again when the first list of the session is empty, and cancels the exits', async () => {
    // The first live orders list after login may be empty while it warms up (WIRE.md §6).
    const cold = await connected({ coldLiveOrders: true }, undefined, { liveOrdersPacingMs: 20 });
    try {
      const placeCold = (signal: Record<string, unknown>) =>
        cold.broker.placeOrder(cold.ctx, cold.session, input(signal));
      await placeCold({ symbol: 'MSFT', action: 'buy', quantity: 5 });
      const stop = await placeCold({
        symbol: 'MSFT',
        action: 'sell',
        quantity: 5,
        type: 'stop',
        stop_price: 400,
        duration: 'gtc',
      });
      const closed = await placeCold({ symbol: 'MSFT', action: 'close' });
      expect(closed.status).toBe('filled');
      const order = cold.fake.ledger.orders.find((o) => String(o.orderId) === stop.id);
      expect(order?.status).toBe('Cancelled');
      expect(cold.fake.ledger.accounts.get(ACCOUNT)?.positions.has(272093)).toBe(false);
    } finally {
      await cold.close();
    }
  });

  it('has sent only reads while it waits for the list again: the hook does not say it was sent', async () => {
    const cold = await connected({ coldLiveOrders: true }, undefined, { liveOrdersPacingMs: 2_000 });
    try {
      await cold.broker.placeOrder(cold.ctx, cold.session, input({ symbol: 'MSFT', action: 'buy', quantity: 5 }));
      const lists = () => sentSince(cold.fake, 0).filter((r) => r === 'GET /v1/api/iserver/account/orders');
      const log = createWireLog([]);
      const closing = log.run(() =>
        cold.broker.placeOrder(cold.ctx, cold.session, input({ symbol: 'MSFT', action: 'close' })),
      );
      // The first list of the session answered empty: the close waits before it reads it again.
      await vi.waitFor(() => expect(lists()).toHaveLength(1), { timeout: 1_500 });
      expect(log.sentOnlyReads()).toBe(true);
      expect((await closing).status).toBe('filled');
      expect(log.sentOnlyReads()).toBe(false);
    } finally {
      await cold.close();
    }
  });
});
