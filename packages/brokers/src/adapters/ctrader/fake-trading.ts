// The fake's answers to an authorized account's messages, as cTrader gives them: a new order is
// validated like the server does (symbol, volume limits, prices per order type and in the
// symbol's digits, relative SL/TP distances too, absolute SL/TP refused on market orders, text lengths, margin) and refused
// with ProtoOAOrderErrorEvent; an
// accepted one gets ProtoOAExecutionEvent ORDER_ACCEPTED (echoing clientMsgId) and, for a market
// order, ORDER_FILLED after it (no echo), as in execution-event.*.json.
import type { JsonRecord } from '../../core/json-read.ts';
import { FAKE_ASSETS, FAKE_SYMBOLS, type FakeAccount, FakeBook } from './fake-book.ts';

export interface Reply {
  name: string;
  payload: JsonRecord;
  /** Carries the request's clientMsgId (the direct answer); later events do not. */
  echo: boolean;
}

const ORDER_LIST_CHUNK = 100;
const TEXT_LIMITS: Record<string, number> = { clientOrderId: 50, label: 100, comment: 512 };

export function errorRes(account: number | undefined, errorCode: string, description: string): Reply {
  return {
    name: 'ProtoOAErrorRes',
    payload: { ...(account !== undefined ? { ctidTraderAccountId: account } : {}), errorCode, description },
    echo: true,
  };
}

const orderError = (account: number, errorCode: string, description: string, extra: JsonRecord = {}): Reply[] => [
  {
    name: 'ProtoOAOrderErrorEvent',
    payload: { ctidTraderAccountId: account, errorCode, description, ...extra },
    echo: true,
  },
];

function execution(account: number, executionType: number, parts: JsonRecord, echo: boolean): Reply {
  const payload: JsonRecord = { ctidTraderAccountId: account, executionType };
  for (const key of ['position', 'order', 'deal'] as const) {
    const part = parts[key] as JsonRecord | undefined;
    if (part) payload[key] = key === 'deal' ? structuredClone(part) : FakeBook.wire(part);
  }
  payload.isServerEvent = false;
  return { name: 'ProtoOAExecutionEvent', payload, echo };
}

/** A price written with at most `digits` decimals (binary noise aside). */
const onDigits = (price: number, digits: number) =>
  Math.abs(price * 10 ** digits - Math.round(price * 10 ** digits)) < 1e-6;

/** Why cTrader would refuse this ProtoOANewOrderReq, as [errorCode, description], or undefined. */
function refusal(book: FakeBook, account: FakeAccount, request: JsonRecord): [string, string] | undefined {
  const symbol = book.symbol(Number(request.symbolId));
  if (!symbol) return ['SYMBOL_NOT_FOUND', `Symbol ${request.symbolId} is not found`];
  const type = Number(request.orderType);
  if (![1, 2, 3, 5, 6].includes(type)) return ['INVALID_REQUEST', `Order type ${type} cannot be placed`];
  const volume = Number(request.volume);
  if (volume < symbol.minVolume || volume > symbol.maxVolume || volume % symbol.stepVolume !== 0)
    return ['TRADING_BAD_VOLUME', `Order volume ${volume / 100} is not valid for ${symbol.symbolName}`];
  for (const [field, max] of Object.entries(TEXT_LIMITS)) {
    if (String(request[field] ?? '').length > max) return ['INVALID_REQUEST', `${field} is longer than ${max}`];
  }
  if ((request.limitPrice !== undefined) !== (type === 2))
    return ['TRADING_BAD_PRICES', 'Limit price is for LIMIT orders only and required there'];
  if ((request.stopPrice !== undefined) !== (type === 3 || type === 6))
    return ['TRADING_BAD_PRICES', 'Stop price is for STOP and STOP_LIMIT orders only and required there'];
  for (const field of ['limitPrice', 'stopPrice', 'stopLoss', 'takeProfit']) {
    const price = request[field];
    if (price !== undefined && !onDigits(Number(price), symbol.digits))
      return [
        'TRADING_BAD_PRICES',
        `Order ${field} = ${price} has more digits than symbol allows. Allowed ${symbol.digits} digits`,
      ];
  }
  // The exit is the fill ± the distance: a distance finer than the symbol's digits gives it more.
  const relatives = { relativeStopLoss: 'stop loss', relativeTakeProfit: 'take profit' };
  for (const [field, name] of Object.entries(relatives)) {
    const distance = request[field];
    if (distance !== undefined && !onDigits(Number(distance) / 100_000, symbol.digits))
      return ['TRADING_BAD_STOPS', `Relative ${name} has invalid precision`];
  }
  if (type === 6 && request.slippageInPoints === undefined)
    return ['INVALID_REQUEST', 'STOP_LIMIT needs slippageInPoints'];
  if (type === 1 && (request.stopLoss !== undefined || request.takeProfit !== undefined))
    return [
      'TRADING_BAD_STOPS',
      'SL/TP in absolute values are allowed only for order types: [LIMIT, STOP, STOP_LIMIT]',
    ];
  if (request.timeInForce === 1 && !(Number(request.expirationTimestamp) > book.now()))
    return ['INVALID_REQUEST', 'A GOOD_TILL_DATE order needs an expirationTimestamp in the future'];
  if (book.marginOf(symbol, volume) > book.freeMargin(account)) return ['NOT_ENOUGH_MONEY', 'Not enough money'];
  return undefined;
}

function newOrder(book: FakeBook, account: FakeAccount, request: JsonRecord): Reply[] {
  const id = account.ctidTraderAccountId;
  const refused = refusal(book, account, request);
  if (refused) return orderError(id, ...refused);
  const order = book.newOrder(id, request);
  if (request.orderType !== 1) return [execution(id, 2, { order }, true)];
  // The acceptance already names the position the fill opens (positionStatus CREATED).
  const before = FakeBook.wire(order);
  const { position, deal } = book.fill(order, book.symbol(Number(request.symbolId))?.quote ?? 1);
  const { price: _price, stopLoss: _sl, takeProfit: _tp, ...opened } = FakeBook.wire(position);
  const created = { ...opened, positionStatus: 3 };
  const accepted = execution(id, 2, { position: created, order: { ...before, positionId: position.positionId } }, true);
  return [accepted, execution(id, 3, { order, position, deal }, false)];
}

function ownOrder(book: FakeBook, account: number, orderId: unknown): JsonRecord | undefined {
  const order = book.orders.get(Number(orderId));
  return order?.account === account ? order : undefined;
}

function cancel(book: FakeBook, account: number, request: JsonRecord): Reply[] {
  const order = ownOrder(book, account, request.orderId);
  if (!order) return orderError(account, 'ORDER_NOT_FOUND', `Order ${request.orderId} is not found`);
  if (order.orderStatus !== 1)
    return orderError(account, 'UNABLE_TO_CANCEL_ORDER', 'Order is not pending', { orderId: order.orderId });
  order.orderStatus = 5;
  order.utcLastUpdateTimestamp = book.now();
  return [execution(account, 5, { order }, true)];
}

function closePosition(book: FakeBook, account: number, request: JsonRecord): Reply[] {
  const position = book.positions.get(Number(request.positionId));
  if (!position || position.account !== account)
    return orderError(account, 'POSITION_NOT_FOUND', `Position ${request.positionId} is not found`);
  const held = (position.tradeData as { volume: number; symbolId: number }).volume;
  const volume = Number(request.volume);
  if (volume <= 0 || volume > held)
    return orderError(account, 'TRADING_BAD_VOLUME', 'Close volume exceeds the position', {
      positionId: position.positionId,
    });
  // A part is closed in the symbol's steps, as it is traded.
  const symbol = book.symbol((position.tradeData as { symbolId: number }).symbolId);
  if (symbol && volume < held && (volume < symbol.minVolume || volume % symbol.stepVolume !== 0))
    return orderError(
      account,
      'TRADING_BAD_VOLUME',
      `Close volume ${volume / 100} is not valid for ${symbol.symbolName}`,
      {
        positionId: position.positionId,
      },
    );
  const order = book.closingOrder(position, volume);
  const accepted = execution(account, 2, { order, position }, true);
  const { deal } = book.fill(order, book.symbol((position.tradeData as { symbolId: number }).symbolId)?.quote ?? 1);
  return [accepted, execution(account, 3, { order, position, deal }, false)];
}

type Handler = (book: FakeBook, account: FakeAccount, request: JsonRecord) => Reply[];

const answer = (name: string, payload: JsonRecord): Reply[] => [{ name, payload, echo: true }];

/** Account-bound requests the fake serves, by message name. */
export const TRADING: Record<string, Handler> = {
  ProtoOANewOrderReq: newOrder,
  ProtoOACancelOrderReq: (book, account, request) => cancel(book, account.ctidTraderAccountId, request),
  ProtoOAClosePositionReq: (book, account, request) => closePosition(book, account.ctidTraderAccountId, request),
  ProtoOATraderReq: (_book, account) =>
    answer('ProtoOATraderRes', {
      ctidTraderAccountId: account.ctidTraderAccountId,
      trader: {
        ctidTraderAccountId: account.ctidTraderAccountId,
        balance: account.balance,
        depositAssetId: account.depositAssetId,
        traderLogin: account.traderLogin,
        brokerName: account.brokerTitleShort,
        moneyDigits: 2,
      },
    }),
  ProtoOAAssetListReq: (_book, account) =>
    answer('ProtoOAAssetListRes', { ctidTraderAccountId: account.ctidTraderAccountId, asset: [...FAKE_ASSETS] }),
  ProtoOASymbolsListReq: (_book, account) =>
    answer('ProtoOASymbolsListRes', {
      ctidTraderAccountId: account.ctidTraderAccountId,
      symbol: FAKE_SYMBOLS.map(({ symbolId, symbolName }) => ({ symbolId, symbolName, enabled: true })),
    }),
  ProtoOASymbolByIdReq: (book, account, request) =>
    answer('ProtoOASymbolByIdRes', {
      ctidTraderAccountId: account.ctidTraderAccountId,
      symbol: (Array.isArray(request.symbolId) ? request.symbolId : []).flatMap((id) => {
        const symbol = book.symbol(Number(id));
        if (!symbol) return [];
        const { symbolId, digits, pipPosition, minVolume, stepVolume, maxVolume } = symbol;
        return [{ symbolId, digits, pipPosition, minVolume, stepVolume, maxVolume, lotSize: 10_000_000 }];
      }),
    }),
  ProtoOAReconcileReq: (book, account) => {
    const own = (entity: JsonRecord) => entity.account === account.ctidTraderAccountId;
    return answer('ProtoOAReconcileRes', {
      ctidTraderAccountId: account.ctidTraderAccountId,
      position: [...book.positions.values()].filter(own).map(FakeBook.wire),
      order: [...book.orders.values()].filter((order) => own(order) && order.orderStatus === 1).map(FakeBook.wire),
    });
  },
  ProtoOAOrderDetailsReq: (book, account, request) => {
    const order = ownOrder(book, account.ctidTraderAccountId, request.orderId);
    if (!order)
      return [errorRes(account.ctidTraderAccountId, 'ORDER_NOT_FOUND', `Order ${request.orderId} is not found`)];
    return answer('ProtoOAOrderDetailsRes', {
      ctidTraderAccountId: account.ctidTraderAccountId,
      order: FakeBook.wire(order),
      deal: structuredClone(book.deals.get(Number(order.orderId)) ?? []),
    });
  },
  ProtoOAOrderListReq: (book, account, request) => {
    const from = Number(request.fromTimestamp ?? 0);
    const to = Number(request.toTimestamp ?? 2_147_483_646_000);
    // By the order's last update, as cTrader searches its order lists (ProtoOAOrderListByPositionIdReq
    // says so): an order filled or canceled after the window is not in it.
    const inWindow = [...book.orders.values()].filter((order) => {
      const updated = Number(order.utcLastUpdateTimestamp ?? 0);
      return order.account === account.ctidTraderAccountId && updated >= from && updated <= to;
    });
    return answer('ProtoOAOrderListRes', {
      ctidTraderAccountId: account.ctidTraderAccountId,
      order: inWindow.slice(0, ORDER_LIST_CHUNK).map(FakeBook.wire),
      hasMore: inWindow.length > ORDER_LIST_CHUNK,
    });
  },
};
