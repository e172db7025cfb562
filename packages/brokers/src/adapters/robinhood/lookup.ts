// Finding Robinhood orders again (WIRE.md §6). By its id: GET .../orders/{id}/. By ours: there is
// no client_order_id filter, so the orders created in the window are listed, page after page
// (`next` is a full URL; its path and query are followed on our base URL), and matched on the
// UUID our signal id maps to. When the window holds more pages than we read, nothing is proved.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { asRecord, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder } from '../../core/lookup.ts';
import { type AccountRef, route } from './accounts.ts';
import type { RobinhoodApi, RobinhoodKeys } from './api.ts';
import { robinhoodClientOrderId } from './client-order-id.ts';
import { fromRobinhoodOrder } from './mapper.ts';

/** Pages read before giving up on proving absence. */
const MAX_PAGES = 10;

/** Robinhood's filters take ISO times; whole seconds, widened outward. */
const isoSeconds = (ms: number, round: 'down' | 'up') =>
  new Date((round === 'down' ? Math.floor(ms / 1000) : Math.ceil(ms / 1000)) * 1000)
    .toISOString()
    .replace('.000Z', 'Z');

export interface Listing {
  api: RobinhoodApi;
  ctx: BrokerContext;
  keys: RobinhoodKeys;
  ref: AccountRef;
}

/**
 * The items of a paginated list (`resource`: orders/, holdings/) matching `filters`, page by page
 * until `stop` finds what it wants; `complete` is false when the pages ran out before the list did.
 */
export async function scanPages(
  listing: Listing,
  resource: string,
  filters: Record<string, string | undefined>,
  stop: (items: JsonRecord[]) => boolean = () => false,
): Promise<{ items: JsonRecord[]; complete: boolean }> {
  const { api, ctx, keys, ref } = listing;
  const items: JsonRecord[] = [];
  let request: { path: string; query?: Record<string, string | undefined> } = route(ref, resource, filters);
  for (let page = 0; page < MAX_PAGES; page++) {
    const { body } = await api.call(ctx, keys, request);
    const results = listOf(asRecord(body)?.results);
    items.push(...results);
    const next = stringField(body, 'next');
    if (stop(results) || !next) return { items, complete: true };
    const url = new URL(next);
    request = { path: `${url.pathname}${url.search}` };
  }
  return { items, complete: false };
}

export async function findById(listing: Listing, orderId: string): Promise<OrderResponse | null> {
  const { api, ctx, keys, ref } = listing;
  try {
    const { body } = await api.call(ctx, keys, route(ref, `orders/${encodeURIComponent(orderId)}/`));
    return fromRobinhoodOrder(body);
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
    throw error;
  }
}

/** The orders created in [from, to] that carry the UUID of our client order id. */
export async function listByClientId(
  listing: Listing,
  clientOrderId: string,
  window: { from: number; to: number; symbol?: string },
): Promise<ListedOrder[] | null> {
  const wanted = robinhoodClientOrderId(clientOrderId);
  const ours = (order: JsonRecord) => stringField(order, 'client_order_id') === wanted;
  const { items, complete } = await scanPages(
    listing,
    'orders/',
    {
      created_at_start: isoSeconds(window.from, 'down'),
      created_at_end: isoSeconds(window.to, 'up'),
      ...(window.symbol ? { symbol: window.symbol } : {}),
    },
    (page) => page.some(ours),
  );
  const found = items.filter(ours);
  if (!found.length && !complete) return null;
  return found.map((order) => ({ order: fromRobinhoodOrder(order), match: 'id' }));
}
