// Finding a Questrade order again (core/find-order.ts picks the route). Questrade keeps no client
// order id and its notes cannot be set by the API (WIRE.md §6). With the order id:
// GET …/orders/{id} → {"orders":[record]}. After a lost answer: the account's orders created in
// the window (stateFilter=All) that were entered through the API with the terms we sent:
// symbolId, side, quantity, type and prices (strategies: their legs' symbolIds, directions and
// ratios, the strategy's quantity and the net price).
import type { OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import type { AccountApi } from './api.ts';
import { actionOf, fromRecord } from './mapper.ts';
import { submissionOf } from './orders.ts';

/**
 * Sides Questrade lists for a buy (WIRE.md §5, Order Side); the others sell. We send only Buy or
 * Sell and Questrade names the side by what the order does to the position: a sell of nothing
 * held is Short, a buy while short Cov, an option's side BTO, STC, STO or BTC. So a listed order
 * is compared by its direction only.
 */
const BUY_SIDES = new Set(['Buy', 'Cov', 'BTO', 'BTC']);

export async function findById(api: AccountApi, orderId: string): Promise<OrderResponse | null> {
  const answer = await api.http.request({ path: `${api.path}/orders/${encodeURIComponent(orderId)}`, accept: [404] });
  if (answer.status === 404) return null;
  const record = listOf(asRecord(answer.body)?.orders).find((item) => stringField(item, 'id') === orderId);
  return record ? fromRecord(record, orderId) : null;
}

const same = (listed: unknown, sent: unknown) =>
  (listed === null || listed === undefined) === (sent === undefined) &&
  (sent === undefined || Math.abs(Number(listed) - Number(sent)) < 1e-6);

function matches(record: JsonRecord, sent: JsonRecord, action: string, window: { from: number; to: number }): boolean {
  const created = Date.parse(stringField(record, 'creationTime') ?? '');
  if (!(created >= window.from && created <= window.to)) return false;
  const source = stringField(record, 'source');
  if (source && source !== 'TradingAPI') return false;
  const legs = listOf(sent.legs);
  if (legs.length) {
    // Each leg by its symbolId, direction and ratio (a field Questrade leaves out is not compared).
    const wanted = legs.map((leg) => [String(leg.symbolId), String(leg.action), decimalField(leg, 'legQuantity')]);
    const listed = listOf(record.legs);
    const legMatches = (leg: JsonRecord, [symbolId, action, ratio]: (typeof wanted)[number]) => {
      const side = stringField(leg, 'side');
      const listedRatio = decimalField(leg, 'legRatioQuantity');
      return (
        stringField(leg, 'symbolId') === symbolId &&
        (side === undefined || (BUY_SIDES.has(side) ? 'Buy' : 'Sell') === action) &&
        (listedRatio === undefined || listedRatio === ratio)
      );
    };
    const unused = [...listed];
    const paired = wanted.every((terms) => {
      const index = unused.findIndex((leg) => legMatches(leg, terms));
      return index >= 0 && unused.splice(index, 1).length === 1;
    });
    return (
      paired &&
      unused.length === 0 &&
      decimalField(record, 'totalQuantity') === decimalField(sent, 'quantity') &&
      same(record.limitPrice, sent.limitPrice)
    );
  }
  const primary = listOf(sent.components).find((item) => item.orderClass === 'Primary') ?? sent;
  const orderClass = stringField(record, 'orderClass');
  if (orderClass && orderClass !== 'Primary') return false;
  return (
    decimalField(record, 'symbolId') === decimalField(sent, 'symbolId') &&
    (BUY_SIDES.has(stringField(record, 'side') ?? '') ? 'Buy' : 'Sell') === actionOf(action) &&
    decimalField(record, 'totalQuantity') === decimalField(primary, 'quantity') &&
    stringField(record, 'orderType') === stringField(primary, 'orderType') &&
    same(record.limitPrice, primary.limitPrice) &&
    same(record.stopPrice, primary.stopPrice)
  );
}

export async function listMatching(
  api: AccountApi,
  ctx: BrokerContext,
  query: RecentOrdersQuery,
  now: number,
): Promise<ListedOrder[]> {
  const order = query.order;
  if (!order) return [];
  const sent = (await submissionOf(api, ctx, order, now)).body;
  const { body } = await api.http.request({
    path: `${api.path}/orders`,
    query: {
      startTime: new Date(query.from).toISOString(),
      // Up to now, not the window's end: should Questrade filter by updateTime, an order sent in
      // the window and filled or canceled since would be missed (creationTime is checked above).
      endTime: new Date(Math.max(query.to, now)).toISOString(),
      stateFilter: 'All',
    },
  });
  const found = listOf(asRecord(body)?.orders).filter((record) => matches(record, sent, order.action, query));
  const unique = [...new Map(found.map((record) => [stringField(record, 'id'), record])).values()];
  return unique.map((record) => ({ order: fromRecord(record), match: 'terms' }));
}
