// A pair's price for valuing a market order (maxNotional): GET /api/v1/crypto/marketdata/best_bid_ask/
// ?symbol=BTC-USD, signed like every call. WIRE.md names market data only in passing; the shape is
// that of its [HOOD] source (hood/schema/market.py): results[] of {symbol, price,
// bid_inclusive_of_sell_spread, sell_spread, ask_inclusive_of_buy_spread, buy_spread, timestamp}.
// Market data is not per account, so it is asked on v1 for v1 and v2 accounts alike.
import type { BrokerContext } from '../../core/broker.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { RobinhoodApi, RobinhoodKeys } from './api.ts';

/**
 * The midpoint of the quote's bid and ask, both spread included (what a market sell and a market
 * buy would get): lastPrice names no side. null when Robinhood quotes neither.
 */
export async function quoteMid(
  api: RobinhoodApi,
  ctx: BrokerContext,
  keys: RobinhoodKeys,
  pairSymbol: string,
): Promise<number | null> {
  const { body } = await api.call(ctx, keys, {
    path: '/api/v1/crypto/marketdata/best_bid_ask/',
    query: { symbol: pairSymbol },
  });
  const quote = listOf(asRecord(body)?.results).find((item) => stringField(item, 'symbol') === pairSymbol);
  const bid = decimalField(quote, 'bid_inclusive_of_sell_spread');
  const ask = decimalField(quote, 'ask_inclusive_of_buy_spread');
  return bid !== undefined && ask !== undefined && bid > 0 && ask > 0 ? (bid + ask) / 2 : null;
}
