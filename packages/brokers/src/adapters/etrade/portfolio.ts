// An E*TRADE account's holdings and the actions built on them. Not in WIRE.md; shapes from
// E*TRADE's v1 account reference (View Portfolio, Get Account Balances):
//   GET /v1/accounts/{k}/portfolio.json?count=50&pageNumber=1  {"PortfolioResponse":{"AccountPortfolio":[{
//     "totalPages":2,"nextPageNo":"2","Position":[{"quantity":100,"positionType":"LONG","costPerShare":170.1,
//     "marketValue":17525,"Product":{"symbol":"AAPL","securityType":"EQ"}}]}]}}  (at most 50 positions a page)
//   GET /v1/accounts/{k}/balance.json?instType=BROKERAGE&realTimeNAV=true  {"BalanceResponse":{"Computed":
//     {"cashAvailableForInvestment":…,"cashBuyingPower":…,"marginBuyingPower":…,"RealTimeValues":{"totalAccountValue":…}}}}
// close: a market order for the whole position or a part (whose exits are kept, cut to what is left),
// previewed and placed like any other; cancel: every open order of the symbol.
import { type Order, type OrderResponse, parseSymbol } from '@router/orders';
import type { BrokerContext, BrokerSession, Holdings } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, cutExits } from '../../core/exits-cut.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { EtradeApi } from './api.ts';
import { ETRADE_TITLE } from './descriptor.ts';
import { listOrders } from './lookup.ts';
import {
  type EtradeInstrument,
  type EtradeOrderRequest,
  type EtradeProduct,
  etradeClientOrderId,
  instrumentOf,
  productOf,
} from './mapper.ts';
import { accountPath, cancelById, placeRequest } from './orders.ts';

/** How far back open orders are looked for: a good-until-cancel order may rest for months. */
const OPEN_ORDER_LOOKBACK_MS = 180 * 24 * 60 * 60_000;
/** Positions a portfolio page holds at most (E*TRADE's default and maximum `count`). */
const PORTFOLIO_PAGE_SIZE = 50;
/** Portfolio pages read at most (1,000 positions). */
const MAX_PORTFOLIO_PAGES = 20;

interface Position {
  product: JsonRecord;
  /** Long positive, short negative. */
  quantity: number;
  averagePrice?: number;
  marketValue?: number;
}

/** "AAPL" or the OCC symbol of an option position. */
function symbolOf(product: JsonRecord): string {
  const symbol = stringField(product, 'symbol') ?? '';
  if (stringField(product, 'securityType') !== 'OPTN') return symbol;
  const date = [product.expiryYear, product.expiryMonth, product.expiryDay].map((n) => String(n).padStart(2, '0'));
  const right = stringField(product, 'callPut') === 'PUT' ? 'P' : 'C';
  const strike = Math.round((decimalField(product, 'strikePrice') ?? 0) * 1000);
  return `${symbol.padEnd(6)}${(date[0] ?? '').slice(2)}${date[1]}${date[2]}${right}${String(strike).padStart(8, '0')}`;
}

function sameProduct(product: JsonRecord | undefined, wanted: EtradeProduct): boolean {
  if (!product || stringField(product, 'symbol') !== wanted.symbol) return false;
  if (wanted.securityType !== 'OPTN') return stringField(product, 'securityType') !== 'OPTN';
  return symbolOf(product) === symbolOf({ ...wanted });
}

function positionOf(item: JsonRecord): Position[] {
  const product = asRecord(item.Product);
  const size = Math.abs(decimalField(item, 'quantity') ?? 0);
  if (!product || size === 0) return [];
  const averagePrice = decimalField(item, 'costPerShare') ?? decimalField(item, 'pricePaid');
  const marketValue = decimalField(item, 'marketValue');
  return [
    {
      product,
      quantity: stringField(item, 'positionType') === 'SHORT' ? -size : size,
      ...(averagePrice !== undefined ? { averagePrice } : {}),
      ...(marketValue !== undefined ? { marketValue } : {}),
    },
  ];
}

/**
 * Every position of the account, page by page (`complete` is false when there were more pages
 * than are read).
 */
async function positionsOf(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
): Promise<{ positions: Position[]; complete: boolean }> {
  const path = `${accountPath(session, accountId)}/portfolio.json`;
  const positions: Position[] = [];
  for (let page = 1; page <= MAX_PORTFOLIO_PAGES; page++) {
    const { body } = await api.call(ctx, session, {
      path,
      query: { count: PORTFOLIO_PAGE_SIZE, pageNumber: page },
    });
    const portfolios = listOf(asRecord(asRecord(body)?.PortfolioResponse)?.AccountPortfolio);
    const items = portfolios.flatMap((portfolio) => listOf(portfolio.Position));
    positions.push(...items.flatMap(positionOf));
    const pages = Math.max(0, ...portfolios.map((portfolio) => decimalField(portfolio, 'totalPages') ?? 0));
    // totalPages says how many there are; without it, a next page is named (nextPageNo, next).
    const more =
      pages > 0
        ? page < pages
        : portfolios.some((portfolio) => stringField(portfolio, 'nextPageNo') || stringField(portfolio, 'next'));
    if (items.length === 0 || !more) return { positions, complete: true };
  }
  return { positions, complete: false };
}

export async function holdingsOf(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
): Promise<Holdings> {
  const path = `${accountPath(session, accountId)}/balance.json`;
  const [balance, positions] = await Promise.all([
    api.call(ctx, session, { path, query: { instType: 'BROKERAGE', realTimeNAV: 'true' } }),
    positionsOf(api, ctx, session, accountId),
  ]);
  const computed = asRecord(asRecord(asRecord(balance.body)?.BalanceResponse)?.Computed);
  const cash = decimalField(computed, 'cashAvailableForInvestment') ?? decimalField(computed, 'cashBalance');
  const equity = decimalField(asRecord(computed?.RealTimeValues), 'totalAccountValue');
  const buyingPower = decimalField(computed, 'marginBuyingPower') ?? decimalField(computed, 'cashBuyingPower');
  return {
    ...(cash !== undefined ? { cash } : {}),
    ...(equity !== undefined ? { equity } : {}),
    ...(buyingPower !== undefined ? { buyingPower } : {}),
    currency: 'USD',
    positions: positions.positions.map(({ product, ...position }) => ({ symbol: symbolOf(product), ...position })),
  };
}

/** A market order for the whole position in `symbol` (`quantity`: that much of it). */
export async function closeSymbol(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
  clientOrderId: string,
  now: number,
  quantity?: number,
): Promise<OrderResponse> {
  const parsed = parseSymbol(symbol);
  const orderClass = parsed.class === 'option' ? 'option' : 'stock';
  const wanted = productOf(parsed.canonical, orderClass);
  const held = await positionsOf(api, ctx, session, accountId);
  const position = held.positions.find((item) => sameProduct(item.product, wanted));
  if (!position && !held.complete)
    throw new BrokerError(
      'InvalidOrder',
      ETRADE_TITLE,
      `no position in ${symbol.trim()} among the first ${MAX_PORTFOLIO_PAGES * PORTFOLIO_PAGE_SIZE} of the portfolio`,
    );
  if (!position) throw new BrokerError('InvalidOrder', ETRADE_TITLE, `no open position in ${symbol.trim()}`);
  const size = Math.abs(position.quantity);
  // A quantity closes that much of the position, never more than is held.
  const closed = Math.min(size, quantity ?? Number.POSITIVE_INFINITY);
  // A close of all of it cancels the symbol's open orders first: a stop left working sold, once
  // triggered, shares no longer held (a short opened). A close of part keeps them, cut to what is
  // left once it is placed (fitExits).
  const canceled =
    closed === size
      ? (await cancelOpenOrders(api, ctx, session, accountId, { symbol: parsed.canonical, class: orderClass }, now)).id
          .split(',')
          .filter(Boolean)
      : [];
  const long = position.quantity > 0;
  const option = orderClass === 'option';
  const action = option ? (long ? 'sell_to_close' : 'buy_to_close') : long ? 'sell' : 'buy_to_cover';
  const request: EtradeOrderRequest = {
    orderType: option ? 'OPTN' : 'EQ',
    clientOrderId,
    Order: [
      {
        allOrNone: false,
        priceType: 'MARKET',
        orderTerm: 'GOOD_FOR_DAY',
        marketSession: 'REGULAR',
        Instrument: [instrumentOf(parsed.canonical, orderClass, action, closed)],
      },
    ],
  };
  const placed = await placeRequest(api, ctx, session, accountId, request).catch((error: unknown) => {
    throw closeFailedAfterCancel(error, symbol.trim(), canceled);
  });
  if (closed === size) return placed;
  const closing = instrumentOf(parsed.canonical, orderClass, action, size - closed);
  return fitExits(api, ctx, session, accountId, closing, { clientOrderId, now }, placed);
}

/**
 * After a close of part of the position, its exits (the open single orders closing it as
 * `closing` does) larger than what is left (`closing.quantity`) are cut to it: sized for the whole
 * position, a stop triggered later sold more than was held (a short opened). E*TRADE changes an
 * open order (WIRE.md §7) into a new one with the same terms, for what filled plus what is left;
 * each change carries its own clientOrderId, the close's with a number. The close stands whatever
 * happens here.
 */
function fitExits(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  closing: EtradeInstrument,
  sent: { clientOrderId: string; now: number },
  answer: OrderResponse,
): Promise<OrderResponse> {
  const left = closing.quantity;
  const exits = async () => {
    const open = await workingOrders(api, ctx, session, accountId, closing.Product, sent.now);
    return open.flatMap(({ order, detail }) => {
      const [instrument, ...more] = listOf(detail?.Instrument);
      const id = stringField(order, 'orderId');
      const filled = decimalField(instrument, 'filledQuantity') ?? 0;
      const ordered = decimalField(instrument, 'orderedQuantity') ?? decimalField(instrument, 'quantity') ?? 0;
      const exit =
        id !== undefined &&
        detail !== undefined &&
        more.length === 0 &&
        sameProduct(asRecord(instrument?.Product), closing.Product) &&
        stringField(instrument, 'orderAction') === closing.orderAction &&
        ordered - filled > left;
      return exit ? [{ id, order, detail, filled }] : [];
    });
  };
  let count = 0;
  return cutExits(answer, `the ${left} left`, exits, async ({ id, order, detail, filled }) => {
    const price = (key: string) => {
      const value = decimalField(detail, key);
      return value ? { [key]: value } : {};
    };
    const request: EtradeOrderRequest = {
      orderType: stringField(order, 'orderType') ?? 'EQ',
      clientOrderId: etradeClientOrderId(`${sent.clientOrderId}x${++count}`),
      Order: [
        {
          allOrNone: detail.allOrNone === true,
          priceType: stringField(detail, 'priceType') ?? 'STOP',
          orderTerm: stringField(detail, 'orderTerm') ?? 'GOOD_FOR_DAY',
          marketSession: stringField(detail, 'marketSession') === 'EXTENDED' ? 'EXTENDED' : 'REGULAR',
          ...price('limitPrice'),
          ...price('stopPrice'),
          ...price('stopLimitPrice'),
          Instrument: [{ ...closing, quantity: filled + left }],
        },
      ],
    };
    const changed = await placeRequest(api, ctx, session, accountId, request, id);
    return `${id} → ${changed.id}`;
  });
}

/** What E*TRADE lists of an order still working: open, or open with part executed (WIRE.md §6). */
const WORKING = new Set(['OPEN', 'INDIVIDUAL_FILLS']);

/**
 * The working orders with a leg in `product`. Listed by symbol, not by status: E*TRADE's status
 * filter takes one status, and an exit executed in part (INDIVIDUAL_FILLS) works on.
 */
async function workingOrders(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  product: EtradeProduct,
  now: number,
) {
  const { orders } = await listOrders(api, ctx, session, accountId, {
    from: now - OPEN_ORDER_LOOKBACK_MS,
    to: now,
    symbol: product.symbol,
  });
  return orders.filter(
    (item) =>
      WORKING.has(stringField(item.detail, 'status') ?? '') &&
      listOf(item.detail?.Instrument).some((leg) => sameProduct(asRecord(leg.Product), product)),
  );
}

/** The cancel action: every open order of the symbol; none open is an answer, not an error. */
export async function cancelOpenOrders(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: Pick<Order, 'symbol' | 'class'>,
  now: number,
): Promise<OrderResponse> {
  const wanted = productOf(order.symbol, order.class === 'option' ? 'option' : 'stock');
  const ids = (await workingOrders(api, ctx, session, accountId, wanted, now))
    .map((item) => stringField(item.order, 'orderId'))
    .filter((id): id is string => id !== undefined);
  const name = order.symbol.trim();
  await cancelEach(ids, name, (id) => cancelById(api, ctx, session, accountId, id));
  const description = ids.length ? `Canceled ${ids.length} open order(s) of ${name}` : `No open orders of ${name}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}
