// The order book of the FOREX.com protocol fake: trades fill at once on the market's price and
// net against open positions (PositionMethodId 1), stop/limit orders work until cancelled, and
// every answer is an ApiTradeOrderResponseDTO in HTTP 200, refusals included (WIRE.md §6):
// instruction errors as Status 4 with an instruction reason, order refusals as Orders[0].Status 5.

import { fakeDtos } from './fake-dtos.ts';
import { type FakeMarket, marketById, notionalUsd, toleranceOf, wcfDate } from './fake-market.ts';

type Json = Record<string, unknown>;
type Direction = 'buy' | 'sell';

export interface Position {
  OrderId: number;
  MarketId: number;
  Direction: Direction;
  Quantity: number;
  Price: number;
  at: number;
}

export interface WorkingOrder {
  OrderId: number;
  ParentOrderId: number | null;
  MarketId: number;
  Direction: Direction;
  Quantity: number;
  TriggerPrice: number;
  /** 2 stop, 3 limit. */
  TypeId: number;
  Applicability: string;
  StatusId: number;
  at: number;
  changedAt: number;
}

const instructionError = (reason: number) => ({
  Status: 4,
  StatusReason: reason,
  OrderId: 0,
  Orders: [],
  Quote: null,
  Actions: [],
  ErrorMessage: null,
});

const orderResponse = (order: Json) => ({
  StatusReason: 1,
  Price: 0,
  TriggerPrice: 0,
  CommissionCharge: 0,
  IfDone: [],
  GuaranteedPremium: 0,
  OCO: null,
  ...order,
});

const answer = (orderId: number, order: Json, actions: Json[] = []) => ({
  Status: 1,
  StatusReason: 1,
  OrderId: orderId,
  Orders: [orderResponse({ OrderId: orderId, ...order })],
  Quote: null,
  Actions: actions,
  ErrorMessage: null,
});

const opposite = (direction: Direction): Direction => (direction === 'buy' ? 'sell' : 'buy');

export interface FakeTradingOptions {
  cash: number;
  tradingAccountId: number;
  currency: string;
  now: () => number;
}

export function createFakeTrading(options: FakeTradingOptions) {
  const positions: Position[] = [];
  const working: WorkingOrder[] = [];
  const trades: Json[] = [];
  const stopLimitHistory: Json[] = [];
  let cash = options.cash;
  let nextId = 712345678;
  const dtos = fakeDtos(options.tradingAccountId, options.currency);
  const marginUsed = () =>
    positions.reduce((sum, p) => {
      const market = marketById(p.MarketId);
      return sum + (market ? notionalUsd(market, p.Quantity, p.Price) * market.margin : 0);
    }, 0);

  /** What both kinds of order check; a refusal, or the market and terms. */
  function basics(body: Json): { refusal: Json } | { market: FakeMarket; direction: Direction; quantity: number } {
    if (body.TradingAccountId !== options.tradingAccountId) return { refusal: instructionError(56) };
    const market = marketById(body.MarketId);
    if (!market) return { refusal: instructionError(55) };
    if (body.Direction !== 'buy' && body.Direction !== 'sell') return { refusal: instructionError(34) };
    const quantity = Number(body.Quantity);
    if (!(quantity > 0)) return { refusal: instructionError(30) };
    if (Number(body.BidPrice) > Number(body.OfferPrice)) return { refusal: instructionError(12) };
    const reason = market.closed ? 10 : quantity < market.minSize ? 8 : quantity > market.maxSize ? 6 : undefined;
    if (reason)
      return { refusal: answer(nextId++, { Status: 5, StatusReason: reason, OrderTypeId: 1, Quantity: quantity }) };
    return { market, direction: body.Direction, quantity };
  }

  /** The status reason refusing the IfDone exits: direction, size, side of the entry. */
  function exitReason(body: Json, direction: Direction, quantity: number, entry: number): number | undefined {
    for (const pair of (body.IfDone as Json[] | undefined) ?? []) {
      for (const [kind, exit] of Object.entries(pair) as Array<[string, Json | null]>) {
        if (!exit) continue;
        if (exit.Direction !== opposite(direction)) return 46;
        if (Number(exit.Quantity) > quantity) return 48;
        const above = Number(exit.TriggerPrice) > entry;
        if ((kind === 'Limit') !== (direction === 'buy' ? above : !above)) return 25;
      }
    }
    return undefined;
  }

  /** The exits become working orders of the parent; their ApiIfDoneResponseDTOs. */
  function addExits(body: Json, parent: number, market: FakeMarket, direction: Direction): Json[] {
    return ((body.IfDone as Json[] | undefined) ?? []).map((pair) => {
      const responses: Json = {};
      for (const [kind, exit] of Object.entries(pair) as Array<[string, Json | null]>) {
        if (!exit) continue;
        const order: WorkingOrder = {
          OrderId: nextId++,
          ParentOrderId: parent,
          MarketId: market.MarketId,
          Direction: opposite(direction),
          Quantity: Number(exit.Quantity),
          TriggerPrice: Number(exit.TriggerPrice),
          TypeId: kind === 'Stop' ? 2 : 3,
          Applicability: String(exit.Applicability ?? 'gtc'),
          StatusId: 2,
          at: options.now(),
          changedAt: options.now(),
        };
        working.push(order);
        responses[kind] = orderResponse({
          OrderId: order.OrderId,
          Status: 2,
          OrderTypeId: order.TypeId,
          Quantity: order.Quantity,
          TriggerPrice: order.TriggerPrice,
        });
      }
      return responses;
    });
  }

  /** Fills a trade: nets against opposite positions first, opens the rest; the realised P&L. */
  function fill(orderId: number, market: FakeMarket, direction: Direction, quantity: number, price: number) {
    let left = quantity;
    let pnl = 0;
    for (const position of positions.filter((p) => p.MarketId === market.MarketId && p.Direction !== direction)) {
      const closed = Math.min(left, position.Quantity);
      pnl += (price - position.Price) * closed * (position.Direction === 'buy' ? 1 : -1);
      position.Quantity -= closed;
      left -= closed;
      if (left <= 0) break;
    }
    positions.splice(0, positions.length, ...positions.filter((p) => p.Quantity > 0));
    const at = options.now();
    if (left > 0)
      positions.push({
        OrderId: orderId,
        MarketId: market.MarketId,
        Direction: direction,
        Quantity: left,
        Price: price,
        at,
      });
    cash += pnl;
    trades.unshift(
      dtos.tradeHistory(
        { OrderId: orderId, MarketId: market.MarketId, Direction: direction, Quantity: left, Price: price, at },
        market,
        quantity,
        pnl,
      ),
    );
    return { opened: left > 0, pnl };
  }

  function placeTrade(body: Json, simulate = false): Json {
    const checked = basics(body);
    if ('refusal' in checked) return checked.refusal;
    const { market, direction, quantity } = checked;
    const price = direction === 'buy' ? market.offer : market.bid;
    const quoted = Number(direction === 'buy' ? body.OfferPrice : body.BidPrice);
    const reject = (reason: number) =>
      answer(nextId++, { Status: 5, StatusReason: reason, OrderTypeId: 1, Quantity: quantity });
    if (Math.abs(price - quoted) > toleranceOf(market)) return reject(158);
    const exit = exitReason(body, direction, quantity, price);
    if (exit) return reject(exit);
    const required = notionalUsd(market, quantity, price) * market.margin;
    if (required > cash - marginUsed()) return reject(63);
    if (simulate) return dtos.simulation(cash, marginUsed(), required);
    const orderId = nextId++;
    const { opened, pnl } = fill(orderId, market, direction, quantity, price);
    const ifDone = addExits(body, orderId, market, direction);
    const actions = [
      {
        ActionedOrderId: orderId,
        ActioningOrderId: orderId,
        Quantity: quantity,
        ProfitAndLoss: pnl,
        ProfitAndLossCurrency: options.currency,
        OrderActionTypeId: opened ? 1 : 2,
      },
    ];
    return answer(
      orderId,
      { Status: opened ? 3 : 9, OrderTypeId: 1, Price: price, Quantity: quantity, IfDone: ifDone },
      actions,
    );
  }

  function placeStopLimit(body: Json): Json {
    const checked = basics(body);
    if ('refusal' in checked) return checked.refusal;
    const { market, direction, quantity } = checked;
    const trigger = Number(body.TriggerPrice);
    const applicability = String(body.Applicability ?? '');
    if (!['gtc', 'gfd', 'gtd'].includes(applicability.toLowerCase())) return instructionError(47);
    if (!(trigger > 0)) return instructionError(51);
    const reject = (reason: number) =>
      answer(nextId++, { Status: 5, StatusReason: reason, OrderTypeId: 2, Quantity: quantity });
    if (applicability.toLowerCase() === 'gtd' && !body.ExpiryDateTimeUTC) return reject(109);
    const price = direction === 'buy' ? market.offer : market.bid;
    if (trigger === price) return reject(25);
    // FOREX.com infers the kind: a buy below the market (a sell above it) is a limit, else a stop.
    const typeId = trigger < price === (direction === 'buy') ? 3 : 2;
    const exit = exitReason(body, direction, quantity, trigger);
    if (exit) return reject(exit);
    const orderId = nextId++;
    const at = options.now();
    working.push({
      OrderId: orderId,
      ParentOrderId: null,
      MarketId: market.MarketId,
      Direction: direction,
      Quantity: quantity,
      TriggerPrice: trigger,
      TypeId: typeId,
      Applicability: applicability.toLowerCase(),
      StatusId: 2,
      at,
      changedAt: at,
    });
    const ifDone = addExits(body, orderId, market, direction);
    return answer(orderId, {
      Status: 2,
      OrderTypeId: typeId,
      Quantity: quantity,
      TriggerPrice: trigger,
      IfDone: ifDone,
    });
  }

  function cancel(body: Json): Json {
    const order = working.find((item) => item.OrderId === body.OrderId);
    if (!order || body.TradingAccountId !== options.tradingAccountId) return instructionError(61);
    const cancelled = working.filter((item) => item === order || item.ParentOrderId === order.OrderId);
    for (const item of cancelled) {
      item.StatusId = 4;
      item.changedAt = options.now();
      stopLimitHistory.unshift(dtos.stopLimitHistory(item));
    }
    working.splice(0, working.length, ...working.filter((item) => !cancelled.includes(item)));
    const action = {
      ActionedOrderId: order.OrderId,
      ActioningOrderId: order.OrderId,
      Quantity: order.Quantity,
      ProfitAndLoss: 0,
      ProfitAndLossCurrency: options.currency,
      OrderActionTypeId: 8,
    };
    return answer(
      order.OrderId,
      { Status: 4, OrderTypeId: order.TypeId, Quantity: order.Quantity, TriggerPrice: order.TriggerPrice },
      [action],
    );
  }

  function getOrder(orderId: number) {
    const position = positions.find((item) => item.OrderId === orderId);
    const order = working.find((item) => item.OrderId === orderId);
    return {
      TradeOrder: position ? dtos.tradeOrder(position) : null,
      StopLimitOrder: order ? dtos.stopLimitOrder(order) : null,
    };
  }

  return {
    placeTrade,
    placeStopLimit,
    cancel,
    getOrder,
    positions,
    working,
    trades,
    stopLimitHistory,
    cash: () => cash,
    marginUsed,
    dtos,
  };
}

export type FakeTrading = ReturnType<typeof createFakeTrading>;
export { wcfDate };
