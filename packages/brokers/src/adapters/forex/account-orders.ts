// Order actions on one FOREX.com trading account: placing (the answer read for the refusals it
// carries in HTTP 200), cancelling by id, the cancel action (every working entry order of a
// market), closing a market's open positions with an opposite trade naming them, and holdings.
import type { OrderResponse } from '@router/orders';
import type { Holdings } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { FOREX_TITLE } from './descriptor.ts';
import type { Lookup } from './lookup.ts';
import type { ForexRequest, TradeRequest } from './mapper.ts';
import type { ForexMarket, Quote } from './markets.ts';
import { readTradeAnswer } from './status.ts';

export async function submitOrder(lookup: Lookup, request: ForexRequest): Promise<OrderResponse> {
  const { api, ctx, session } = lookup;
  const { body } = await api.call(ctx, session, { method: 'POST', path: request.path, json: request.body }, 'order');
  return readTradeAnswer(body, true);
}

export async function cancelById(lookup: Lookup, orderId: string): Promise<OrderResponse> {
  const { api, ctx, session, account } = lookup;
  if (!/^\d+$/.test(orderId))
    throw new BrokerError('OrderNotFound', FOREX_TITLE, `${orderId} is not a FOREX.com order id`);
  const { body } = await api.call(
    ctx,
    session,
    {
      method: 'POST',
      path: '/order/cancel',
      json: { OrderId: Number(orderId), TradingAccountId: account.tradingAccountId },
    },
    'order',
  );
  return readTradeAnswer(body, true);
}

/**
 * The cancel action: every working entry order of the market (its own IfDone exits go with it);
 * none is an answer, not an error. The exits of an open position are listed too, with the
 * position as their ParentOrderId: they protect what is held and are left working.
 */
export async function cancelWorking(lookup: Lookup, market: ForexMarket): Promise<OrderResponse> {
  const { api, ctx, session, account } = lookup;
  const { body } = await api.call(ctx, session, {
    path: '/order/activestoplimitorders',
    query: { TradingAccountId: account.tradingAccountId },
  });
  const ids = listOf(asRecord(body)?.ActiveStopLimitOrders)
    .filter((order) => decimalField(order, 'MarketId') === market.marketId && order.ParentOrderId == null)
    .map((order) => stringField(order, 'OrderId'))
    .filter((id): id is string => id !== undefined);
  await cancelEach(ids, market.name, (id) => cancelById(lookup, id));
  const description = ids.length
    ? `Cancelled ${ids.length} working order(s) of ${market.name}`
    : `No working orders of ${market.name}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}

async function openPositions(lookup: Lookup): Promise<JsonRecord[]> {
  const { api, ctx, session, account } = lookup;
  const { body } = await api.call(ctx, session, {
    path: '/order/openpositions',
    query: { TradingAccountId: account.tradingAccountId },
  });
  return listOf(asRecord(body)?.OpenPositions);
}

const signed = (position: JsonRecord) =>
  (decimalField(position, 'Quantity') ?? 0) * (stringField(position, 'Direction')?.toLowerCase() === 'sell' ? -1 : 1);

/** The trade that closes the market's open positions (or `quantity` of them, at most all), naming those it closes. */
export async function closeRequest(
  lookup: Lookup,
  market: ForexMarket,
  quote: Quote,
  quantity?: number,
): Promise<ForexRequest> {
  const positions = (await openPositions(lookup)).filter((item) => decimalField(item, 'MarketId') === market.marketId);
  const net = positions.reduce((sum, position) => sum + signed(position), 0);
  if (!positions.length || net === 0)
    throw new BrokerError('InvalidOrder', FOREX_TITLE, `no open position in ${market.name}`);
  const amount = Math.min(Math.abs(net), quantity ?? Number.POSITIVE_INFINITY);
  // Close lists the orders this trade part or fully closes: the positions on the net's side,
  // oldest (lowest order id) first, as many as the amount reaches, not every position held.
  const named: number[] = [];
  let left = amount;
  for (const position of positions
    .filter((item) => Math.sign(signed(item)) === Math.sign(net))
    .sort((a, b) => (decimalField(a, 'OrderId') ?? 0) - (decimalField(b, 'OrderId') ?? 0))) {
    if (left <= 0) break;
    named.push(decimalField(position, 'OrderId') ?? 0);
    left -= Math.abs(signed(position));
  }
  const body: TradeRequest = {
    MarketId: market.marketId,
    Direction: net > 0 ? 'sell' : 'buy',
    Quantity: amount,
    BidPrice: quote.bid,
    OfferPrice: quote.offer,
    TradingAccountId: lookup.account.tradingAccountId,
    Currency: lookup.account.currency,
    AutoRollover: false,
    PositionMethodId: 1,
    IfDone: [],
    Close: named,
  };
  return { path: '/order/newtradeorder', body };
}

export async function holdingsOf(lookup: Lookup): Promise<Holdings> {
  const { api, ctx, session } = lookup;
  const margin = (await api.call(ctx, session, { path: '/margin/ClientAccountMargin' })).body;
  const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    ...optional('cash', decimalField(margin, 'Cash')),
    ...optional('equity', decimalField(margin, 'NetEquity')),
    ...optional('buyingPower', decimalField(margin, 'TradeableFunds')),
    currency: stringField(margin, 'CurrencyIsoCode') ?? lookup.account.currency,
    positions: (await openPositions(lookup)).map((position) => ({
      symbol: stringField(position, 'MarketName') ?? String(decimalField(position, 'MarketId') ?? ''),
      quantity: signed(position),
      ...optional('averagePrice', decimalField(position, 'Price')),
    })),
  };
}
