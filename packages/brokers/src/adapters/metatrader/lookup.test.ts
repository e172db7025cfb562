// Contract: the account side of MetaTrader against the protocol fake: close and cancel signals,
// closePosition, cancelOrder by either id, holdings, and every lookup route through findOrder
// (by ticket: exact or unknown; by our clientId around the send time: exact or none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { DEMO, DEMO_ID, input, type MetaApiWorld, startWorld, tradesSince } from './test-support.ts';

let world: MetaApiWorld;
let session: BrokerSession;
let accountId: string;
beforeAll(async () => {
  world = await startWorld();
  session = await world.broker.connect(world.ctx, { credentials: DEMO });
  accountId = session.accounts[0]?.id ?? '';
});
afterAll(() => world.close());

const place = (signal: Record<string, unknown>, clientOrderId?: string) =>
  world.broker.placeOrder(world.ctx, session, input(session, signal, clientOrderId));
const terminal = () => world.fake.terminals.get(DEMO_ID);
const lookup = (clientOrderId: string, more: { brokerOrderId?: string; sentAt?: number } = {}) =>
  findOrder(world.broker, world.ctx, session, { accountId, clientOrderId, ...more });

describe('close and cancel', () => {
  it('close cancels the symbol’s pending orders and closes its positions; nothing left is refused', async () => {
    await place({ symbol: 'GBPUSD', action: 'buy', quantity: 0.1 });
    await place({ symbol: 'GBPUSD', action: 'sell', quantity: 0.2 });
    const pending = await place({ symbol: 'GBPUSD', action: 'buy', quantity: 0.1, limit_price: 1.2 });
    const before = world.fake.trades().length;
    const closed = await place({ symbol: 'GBPUSD', action: 'close' });
    expect(tradesSince(world.fake, before)).toEqual([
      { actionType: 'ORDER_CANCEL', orderId: pending.id },
      { actionType: 'POSITIONS_CLOSE_SYMBOL', symbol: 'GBPUSD' },
    ]);
    expect(closed).toMatchObject({ status: 'filled', status_description: 'Closed 2 position(s) of GBPUSD' });
    expect([...(terminal()?.positions.values() ?? [])].filter((p) => p.symbol === 'GBPUSD')).toEqual([]);
    const again = await brokerFailure(place({ symbol: 'GBPUSD', action: 'close' }));
    expect(again.message).toBe('MetaTrader: no position or pending order of GBPUSD to close');
  });

  it('close with percent_of_position closes that part of each position, rounded down to 0.01 lot', async () => {
    const opened = await place({ symbol: 'AUDNZD', action: 'buy', quantity: 0.25 });
    const before = world.fake.trades().length;
    await place({ symbol: 'AUDNZD', action: 'close', quantity: 50, quantity_type: 'percent_of_position' });
    expect(tradesSince(world.fake, before)).toEqual([
      { actionType: 'POSITION_PARTIAL', positionId: opened.id, volume: 0.12 },
    ]);
    expect(terminal()?.positions.get(opened.id)?.volume).toBe(0.13);
    await world.broker.closePosition(world.ctx, session, accountId, 'AUD/NZD');
    expect(terminal()?.positions.has(opened.id)).toBe(false);
    expect((await brokerFailure(place({ symbol: 'AUDNZD', action: 'close', quantity: 1 }))).message).toBe(
      'MetaTrader: close takes no quantity, or quantity_type percent_of_position',
    );
  });

  it('a close refused after the pending orders were canceled for it says so: the position is still open, its exits gone', async () => {
    const opened = await place({ symbol: 'GER40', action: 'buy', quantity: 0.01 });
    const target = await place({ symbol: 'GER40', action: 'sell', quantity: 0.01, limit_price: 30000 });
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    // The pending order's cancel goes through; the close is refused.
    world.fake.inject({ method: 'POST', path: trade, delayMs: 1 });
    const body = { id: 1, error: 'ForbiddenError', message: 'Trading is not allowed for this account' };
    world.fake.inject({ method: 'POST', path: trade, status: 403, body });
    const error = await brokerFailure(place({ symbol: 'GER40', action: 'close' }));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toMatch(
      new RegExp(
        `; the open orders of GER40 were canceled before the close \\(${target.id}\\): check the position and its exits at the broker$`,
      ),
    );
    expect(terminal()?.positions.has(opened.id)).toBe(true);
    await world.broker.closePosition(world.ctx, session, accountId, 'GER40');
  });

  it('a close whose cancels fail partway says which pending orders were canceled and which not, and closes nothing', async () => {
    const opened = await place({ symbol: 'GER40', action: 'buy', quantity: 0.01 });
    const stop = await place({ symbol: 'GER40', action: 'sell', quantity: 0.01, stop_price: 18_000 });
    const target = await place({ symbol: 'GER40', action: 'sell', quantity: 0.01, limit_price: 19_000 });
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    world.fake.inject({ method: 'POST', path: trade, delayMs: 1 });
    const body = { id: 1, error: 'ForbiddenError', message: 'Trading is not allowed for this account' };
    world.fake.inject({ method: 'POST', path: trade, status: 403, body });
    const before = world.fake.trades().length;
    const error = await brokerFailure(place({ symbol: 'GER40', action: 'close' }));
    expect(error.message).toBe(
      `MetaTrader: Trading is not allowed for this account; of the open orders of GER40, only some were canceled: ${stop.id}; not ${target.id}: check them at the broker`,
    );
    expect(tradesSince(world.fake, before).map((sent) => sent.actionType)).toEqual(['ORDER_CANCEL', 'ORDER_CANCEL']);
    expect(terminal()?.positions.has(opened.id)).toBe(true);
    await world.broker.closePosition(world.ctx, session, accountId, 'GER40');
  });

  it('a part too small to close anything is refused before the pending orders (its exits) are canceled', async () => {
    await place({ symbol: 'GER40', action: 'buy', quantity: 0.01 });
    const target = await place({ symbol: 'GER40', action: 'sell', quantity: 0.01, limit_price: 30000 });
    const before = world.fake.trades().length;
    const error = await brokerFailure(
      place({ symbol: 'GER40', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    );
    expect(error.message).toBe('MetaTrader: 50 % of the GER40 position is less than 0.01 lot');
    expect(tradesSince(world.fake, before)).toEqual([]);
    expect(terminal()?.orders.has(target.id)).toBe(true);
    await world.broker.closePosition(world.ctx, session, accountId, 'GER40');
  });

  it('a close of part cancels nothing first: the exits that fit what is left stay, one larger is canceled after and named', async () => {
    const opened = await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.1 });
    const stop = await place({ symbol: 'BTCUSD', action: 'sell', quantity: 0.1, stop_price: 55_000 });
    const target = await place({ symbol: 'BTCUSD', action: 'sell', quantity: 0.04, limit_price: 65_000 });
    const entry = await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.1, limit_price: 50_000 });
    const before = world.fake.trades().length;
    try {
      const answer = await place({
        symbol: 'BTCUSD',
        action: 'close',
        quantity: 50,
        quantity_type: 'percent_of_position',
      });
      expect(tradesSince(world.fake, before)).toEqual([
        { actionType: 'POSITION_PARTIAL', positionId: opened.id, volume: 0.05 },
        { actionType: 'ORDER_CANCEL', orderId: stop.id },
      ]);
      expect(answer).toMatchObject({
        status: 'filled',
        status_description: `Closed 50 % of 1 position(s) of BTCUSD; exits larger than the 0.05 lot left canceled (MetaTrader cannot change a pending order's volume): ${stop.id}`,
      });
      expect(terminal()?.positions.get(opened.id)?.volume).toBe(0.05);
      expect([...(terminal()?.orders.keys() ?? [])]).toEqual(expect.arrayContaining([target.id, entry.id]));
    } finally {
      await world.broker.closePosition(world.ctx, session, accountId, 'BTCUSD');
    }
  });

  it('a close of part whose exit cannot be canceled stands, and its answer says the exit is still there', async () => {
    await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.1 });
    const stop = await place({ symbol: 'BTCUSD', action: 'sell', quantity: 0.1, stop_price: 55_000 });
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    world.fake.inject({ method: 'POST', path: trade, delayMs: 1 });
    const body = { id: 1, error: 'ForbiddenError', message: 'Trading is not allowed for this account' };
    world.fake.inject({ method: 'POST', path: trade, status: 403, body });
    try {
      const answer = await place({
        symbol: 'BTCUSD',
        action: 'close',
        quantity: 50,
        quantity_type: 'percent_of_position',
      });
      expect(answer).toMatchObject({
        status: 'filled',
        status_description:
          'Closed 50 % of 1 position(s) of BTCUSD; the open exits larger than the 0.05 lot left could not all be canceled (Trading is not allowed for this account): check them at the broker',
      });
      expect(terminal()?.orders.has(stop.id)).toBe(true);
    } finally {
      await world.broker.closePosition(world.ctx, session, accountId, 'BTCUSD');
    }
  });

  it('a close of part refused at the second position after the first closed says what closed and where it stopped', async () => {
    const first = await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.1 });
    const second = await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.2 });
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    world.fake.inject({ method: 'POST', path: trade, delayMs: 1 });
    const body = { id: 1, error: 'ForbiddenError', message: 'Trading is not allowed for this account' };
    world.fake.inject({ method: 'POST', path: trade, status: 403, body });
    try {
      const answer = await place({
        symbol: 'BTCUSD',
        action: 'close',
        quantity: 50,
        quantity_type: 'percent_of_position',
      });
      expect(answer).toMatchObject({
        status: 'filled',
        status_description: `Closed 50 % of 1 position(s) of BTCUSD; stopped at position ${second.id} (Trading is not allowed for this account): check it at the broker`,
      });
      expect([terminal()?.positions.get(first.id)?.volume, terminal()?.positions.get(second.id)?.volume]).toEqual([
        0.05, 0.2,
      ]);
    } finally {
      await world.broker.closePosition(world.ctx, session, accountId, 'BTCUSD');
    }
  });

  it('close with percent_of_position: 50 % of 0.58 lot is 0.29, not 0.28 (no binary noise in the rounding)', async () => {
    const opened = await place({ symbol: 'US30', action: 'buy', quantity: 0.58 });
    const before = world.fake.trades().length;
    try {
      await place({ symbol: 'US30', action: 'close', quantity: 50, quantity_type: 'percent_of_position' });
      // (Other cases may hold US30 positions of their own: this one's part is looked at.)
      expect(tradesSince(world.fake, before)).toContainEqual({
        actionType: 'POSITION_PARTIAL',
        positionId: opened.id,
        volume: 0.29,
      });
    } finally {
      await world.broker.closePosition(world.ctx, session, accountId, 'US30');
    }
    expect(terminal()?.positions.has(opened.id)).toBe(false);
  });

  it('cancel cancels every pending order of the symbol; none is refused', async () => {
    const a = await place({ symbol: 'XAUUSD', action: 'buy', quantity: 0.01, limit_price: 2300 });
    const b = await place({ symbol: 'XAUUSD', action: 'sell', quantity: 0.01, limit_price: 2500 });
    const canceled = await place({ symbol: 'XAUUSD', action: 'cancel' });
    expect(canceled).toEqual({
      id: `${a.id},${b.id}`,
      status: 'canceled',
      status_description: 'Canceled 2 pending order(s) of XAUUSD',
    });
    expect((await brokerFailure(place({ symbol: 'XAUUSD', action: 'cancel' }))).message).toBe(
      'MetaTrader: no pending order of XAUUSD to cancel',
    );
  });

  it('cancelOrder by the ticket, or by our id when the send time is known to the lookup', async () => {
    const order = await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01, limit_price: 1.05 }, 'cancelme1');
    await world.broker.cancelOrder(world.ctx, session, { accountId, brokerOrderId: order.id });
    expect(terminal()?.history.find((o) => o.id === order.id)?.state).toBe('ORDER_STATE_CANCELED');
    const gone = await brokerFailure(
      world.broker.cancelOrder(world.ctx, session, { accountId, brokerOrderId: order.id }),
    );
    expect(gone).toMatchObject({
      kind: 'OrderNotFound',
      message: 'MetaTrader: Order not found (ERR_TRADE_ORDER_NOT_FOUND)',
    });
    // Our id alone: MetaApi has no query by clientId and the lookup needs the send time.
    const byOurs = await brokerFailure(
      world.broker.cancelOrder(world.ctx, session, { accountId, clientOrderId: 'cancelme1' }),
    );
    expect(byOurs).toMatchObject({
      kind: 'OrderNotFound',
      message: 'MetaTrader: no order with client order id cancelme1',
    });
  });
});

describe('findOrder', () => {
  it('by ticket: an open order, then one in the history (filled at its price); an unknown ticket proves nothing', async () => {
    const open = await place({ symbol: 'EURUSD', action: 'sell', quantity: 0.01, limit_price: 1.2 }, 'find1');
    expect(await lookup('find1', { brokerOrderId: open.id })).toEqual({
      match: 'exact',
      order: { id: open.id, status: 'accepted', status_description: `MetaTrader order ${open.id} placed` },
    });
    const filled = await place({ symbol: 'EURUSD', action: 'sell', quantity: 0.01 }, 'find2');
    expect(await lookup('find2', { brokerOrderId: filled.id })).toEqual({
      match: 'exact',
      order: {
        id: filled.id,
        status: 'filled',
        status_description: `MetaTrader order ${filled.id} filled`,
        price: 1.085,
      },
    });
    expect(await lookup('find3', { brokerOrderId: '1' })).toEqual({
      match: 'unknown',
      reason: 'MetaTrader does not know its own order 1',
    });
  });

  it('by our clientId around the send time: open or in the history since, exact; else none', async () => {
    const sentAt = Date.now();
    const resting = await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01, limit_price: 1.01 }, 'find4');
    const canceled = await place({ symbol: 'US30', action: 'buy', quantity: 0.1, limit_price: 38_000 }, 'find5');
    await world.broker.cancelOrder(world.ctx, session, { accountId, brokerOrderId: canceled.id });
    expect(await lookup('find4', { sentAt })).toMatchObject({
      match: 'exact',
      order: { id: resting.id, status: 'accepted' },
    });
    expect(await lookup('find5', { sentAt })).toMatchObject({
      match: 'exact',
      order: { id: canceled.id, status: 'canceled' },
    });
    expect(await lookup('never-sent', { sentAt })).toEqual({ match: 'none' });
    expect(await lookup('find4')).toEqual({
      match: 'unknown',
      reason: 'MetaTrader lists recent orders only, and the send time is not known',
    });
  });
});

describe('lookup while MetaApi has not listed the history yet', () => {
  it('a filled market order missing from the history is found by the position carrying our clientId', async () => {
    const sentAt = Date.now();
    const filled = await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.02 }, 'find-lag');
    const history = terminal()?.history ?? [];
    const entry = history.findIndex((order) => order.id === filled.id);
    if (entry < 0) throw new Error('the fill is not in the history');
    // The terminal has filled it (a position is open) but the history does not list it yet.
    const [lagging] = history.splice(entry, 1);
    try {
      expect(await lookup('find-lag', { sentAt })).toMatchObject({
        match: 'exact',
        order: { id: filled.id, status: 'filled' },
      });
    } finally {
      if (lagging) history.push(lagging);
    }
  });
});

describe('holdings', () => {
  it('balance, equity and free margin; positions per symbol, shorts negative', async () => {
    await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.05 });
    await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.05 });
    await place({ symbol: 'US30', action: 'sell', quantity: 0.5 });
    const holdings = await world.broker.getHoldings(world.ctx, session, accountId);
    expect(holdings).toMatchObject({ currency: 'USD', cash: expect.any(Number), equity: expect.any(Number) });
    expect(holdings.buyingPower).toBeLessThan(holdings.equity ?? 0);
    expect(holdings.positions).toContainEqual({ symbol: 'BTCUSD', quantity: 0.1, averagePrice: 60_020 });
    expect(holdings.positions).toContainEqual({ symbol: 'US30', quantity: -0.5, averagePrice: 39_000 });
  });
});
