// close and cancel signals at Questrade, which has no call for either. close: the position
// (GET …/positions → {"positions":[{"symbol","symbolId","openQuantity",…}]}) and an opposite
// market order for it or a part; cancel: the symbol's open orders (GET …/orders?stateFilter=Open),
// each DELETEd.
import type { Order, OrderClass, OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { AccountApi } from './api.ts';
import { QUESTRADE_TITLE } from './descriptor.ts';
import { place } from './orders.ts';
import { symbolIdOf } from './symbols.ts';

export async function cancelById(api: AccountApi, orderId: string): Promise<void> {
  await api.http.request({ method: 'DELETE', path: `${api.path}/orders/${encodeURIComponent(orderId)}` });
}

/** Cancels the open orders of `symbolId`; their ids. */
async function cancelOpen(api: AccountApi, symbolId: number): Promise<string[]> {
  const { body } = await api.http.request({ path: `${api.path}/orders`, query: { stateFilter: 'Open' } });
  const ids = listOf(asRecord(body)?.orders)
    .filter((item) => decimalField(item, 'symbolId') === symbolId)
    .map((item) => stringField(item, 'id'))
    .filter((id): id is string => id !== undefined);
  for (const id of ids) await cancelById(api, id);
  return ids;
}

export async function cancelSymbol(
  api: AccountApi,
  ctx: BrokerContext,
  order: Order,
  now: number,
): Promise<OrderResponse> {
  const symbolId = await symbolIdOf(api.http, ctx.baseUrl, order.symbol, order.class, now);
  const ids = await cancelOpen(api, symbolId);
  const description = ids.length
    ? `Canceled ${ids.length} open order(s) of ${order.symbol}`
    : `No open orders of ${order.symbol}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}

export async function closeSymbol(
  api: AccountApi,
  ctx: BrokerContext,
  symbol: string,
  orderClass: OrderClass,
  now: number,
  quantity?: number,
): Promise<OrderResponse> {
  const symbolId = await symbolIdOf(api.http, ctx.baseUrl, symbol, orderClass, now);
  const { body } = await api.http.request({ path: `${api.path}/positions` });
  const position = listOf(asRecord(body)?.positions).find((item) => decimalField(item, 'symbolId') === symbolId);
  const held = decimalField(position, 'openQuantity') ?? 0;
  if (held === 0) throw new BrokerError('InvalidOrder', QUESTRADE_TITLE, `no open position in ${symbol.trim()}`);
  const size = Math.min(quantity ?? Math.abs(held), Math.abs(held));
  if (!Number.isInteger(size) || size < 1)
    throw new BrokerError('InvalidOrder', QUESTRADE_TITLE, 'close takes whole shares or contracts');
  // A close of all of it cancels the symbol's open orders first: a bracket's stop or take profit
  // left working sold, once triggered, shares no longer held (a short opened).
  if (size === Math.abs(held)) await cancelOpen(api, symbolId);
  const placed = await place(api, {
    path: 'orders',
    body: {
      accountNumber: api.accountNumber,
      symbolId,
      quantity: size,
      isAllOrNone: false,
      isAnonymous: false,
      orderType: 'Market',
      timeInForce: 'Day',
      action: held > 0 ? 'Sell' : 'Buy',
      primaryRoute: 'AUTO',
      secondaryRoute: 'AUTO',
    },
  });
  return {
    ...placed,
    status_description: `Closing ${size} of ${Math.abs(held)} ${symbol.trim()}: ${placed.status_description}`,
  };
}
