// Order actions on one Robinhood account: placing (the JSON is serialized once and signed as
// sent), a repeated client_order_id answered with the order already placed, cancelling by id
// (POST .../cancel/, empty body), the cancel action (every open order of a pair), and the coins
// held, for close and percent_of_position.
import type { OrderResponse } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { isBrokerError } from '../../core/errors.ts';
import { decimalField, stringField } from '../../core/json-read.ts';
import { LOOKUP_WINDOW_AFTER_MS } from '../../core/lookup.ts';
import { route } from './accounts.ts';
import { type Listing, listByClientId, scanPages } from './lookup.ts';
import { fromRobinhoodOrder, type RobinhoodOrderRequest } from './mapper.ts';

/** How far back the order a repeated client_order_id names is looked for. */
const DUPLICATE_LOOKBACK_MS = 60 * 60_000;
const OPEN_STATES = ['open', 'partially_filled'];

export async function submitOrder(
  listing: Listing,
  request: RobinhoodOrderRequest,
  signalId: string,
  now: number,
): Promise<OrderResponse> {
  const { api, ctx, keys, ref } = listing;
  try {
    const { body } = await api.call(ctx, keys, { method: 'POST', ...route(ref, 'orders/'), json: request }, 'order');
    return fromRobinhoodOrder(body, true);
  } catch (error) {
    // Placed before (a resent signal, a retried job): answer with that order, never a second one.
    if (isBrokerError(error) && error.kind === 'DuplicateOrder') {
      const window = { from: now - DUPLICATE_LOOKBACK_MS, to: now + LOOKUP_WINDOW_AFTER_MS, symbol: request.symbol };
      const [first] = (await listByClientId(listing, signalId, window)) ?? [];
      if (first) return first.order;
    }
    throw error;
  }
}

/** POST .../orders/{id}/cancel/ with an empty body; an acknowledgement (text on v1, the order on v2). */
export async function cancelById(listing: Listing, orderId: string): Promise<void> {
  const { api, ctx, keys, ref } = listing;
  await api.call(
    ctx,
    keys,
    { method: 'POST', ...route(ref, `orders/${encodeURIComponent(orderId)}/cancel/`) },
    'order',
  );
}

/** The cancel action: every open order of the pair; none open is an answer, not an error. */
export async function cancelOpenOrders(listing: Listing, symbol: string): Promise<OrderResponse> {
  const ids: string[] = [];
  for (const state of OPEN_STATES) {
    const { items } = await scanPages(listing, 'orders/', { symbol, state });
    for (const order of items) {
      const id = stringField(order, 'id');
      if (id && OPEN_STATES.includes(stringField(order, 'state') ?? '')) ids.push(id);
    }
  }
  await cancelEach(ids, symbol, (id) => cancelById(listing, id));
  const description = ids.length ? `Canceled ${ids.length} open order(s) of ${symbol}` : `No open orders of ${symbol}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}

export interface Holding {
  assetCode: string;
  total: number;
  available: number;
}

function holdingOf(item: unknown): Holding | undefined {
  const assetCode = stringField(item, 'asset_code');
  if (!assetCode) return undefined;
  const total = decimalField(item, 'total_quantity') ?? 0;
  return { assetCode, total, available: decimalField(item, 'quantity_available_for_trading') ?? total };
}

/** The coins held, all of them or one asset's (GET .../holdings/?asset_code=BTC). */
export async function holdings(listing: Listing, assetCode?: string): Promise<Holding[]> {
  const { items } = await scanPages(listing, 'holdings/', { asset_code: assetCode });
  return items
    .map(holdingOf)
    .filter((holding): holding is Holding => holding !== undefined && (!assetCode || holding.assetCode === assetCode));
}
