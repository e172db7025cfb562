// E*TRADE's market quote (GET /v1/market/quote/{symbols}.json, Market module): the last trade of
// the instrument an order would name, built from the same product. Options are quoted under
// underlier:year:month:day:optionType:strikePrice. An unknown symbol comes back with HTTP 200 and
// a Messages entry ("… is not a valid symbol") instead of QuoteData: refused with its words.
import type { OrderClass } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { EtradeApi } from './api.ts';
import { ETRADE_TITLE } from './descriptor.ts';
import { type EtradeProduct, productOf } from './mapper.ts';
import { accountPath } from './orders.ts';

/** The quote API's name of a product: the ticker, or the six colon-separated parts of an option. */
export function quoteSymbol(product: EtradeProduct): string {
  if (product.securityType === 'EQ') return product.symbol;
  const { symbol, expiryYear, expiryMonth, expiryDay, callPut, strikePrice } = product;
  return [symbol, expiryYear, expiryMonth, expiryDay, callPut, strikePrice].join(':');
}

export async function lastPriceOf(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
  cls: OrderClass,
): Promise<number | null> {
  // Quotes belong to the user, not an account; the account is still checked as every call does.
  accountPath(session, accountId);
  const named = quoteSymbol(productOf(symbol, cls));
  const { body } = await api.call(ctx, session, {
    path: `/v1/market/quote/${named}.json`,
    query: { detailFlag: 'ALL' },
  });
  const response = asRecord(asRecord(body)?.QuoteResponse);
  const [data] = listOf(response?.QuoteData);
  if (!data) {
    const [message] = listOf(asRecord(response?.Messages)?.Message);
    const why = stringField(message, 'description') ?? `no quote for ${named}`;
    throw new BrokerError('InvalidOrder', ETRADE_TITLE, why);
  }
  const all = asRecord(data.All);
  const last = decimalField(all, 'lastTrade');
  if (last !== undefined && last > 0) return last;
  const bid = decimalField(all, 'bid');
  const ask = decimalField(all, 'ask');
  return bid !== undefined && ask !== undefined && bid > 0 && ask > 0 ? (bid + ask) / 2 : null;
}
