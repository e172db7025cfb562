// The Tradier broker: access token (live or sandbox), equities and options including multi-leg,
// form-encoded orders, our signal id as the order tag, preview with preview=true. Tradier does
// not refuse a repeated tag, so an order is looked up by its tag before it is placed.
import { latestWallHour, type Order, type OrderResponse } from '@router/orders';
import type {
  BrokerAccount,
  BrokerContext,
  BrokerSession,
  BrokerWith,
  Holdings,
  PlaceOrderInput,
} from '../../core/broker.ts';
import { type BrokerEnvironments, connectToEnvironment } from '../../core/environments.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel } from '../../core/exits-cut.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import type { HttpClient } from '../../core/http.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { accountPath, sessionClient, tradierClient } from './client.ts';
import { TRADIER_ENVIRONMENTS, TRADIER_TITLE, tradierDescriptor } from './descriptor.ts';
import { cancelOpenOrders, closingOrder, fitExits, instrumentOf, listOrders, listPositions } from './exits.ts';
import { fromPlacement, fromPreview, fromTradierOrder, tagOf, toTradierForm } from './mapper.ts';

/**
 * Tradier lists the day's orders (and open ones) with their tags: ours is the client order id.
 * Undefined when it is not listed but the list was longer than we read (its absence is not proved).
 */
async function findByTag(http: HttpClient, accountId: string, tag: string): Promise<OrderResponse | null | undefined> {
  const { orders, complete } = await listOrders(http, accountId);
  const order = orders.find((o) => stringField(o, 'tag') === tag);
  if (order) return fromTradierOrder(order);
  return complete ? null : undefined;
}

/** Tradier lists the orders of the present calendar day (US Eastern) and the open ones. */
export const startOfListedDay = (now: number): number => latestWallHour(now, 'America/New_York', 0);

async function findById(http: HttpClient, accountId: string, orderId: string): Promise<OrderResponse | null> {
  try {
    const answer = await http.request({ path: accountPath(accountId, `/orders/${encodeURIComponent(orderId)}`) });
    return fromTradierOrder(asRecord(answer.body)?.order);
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
    throw error;
  }
}

/** {"profile": {"id": "id-gcostanza", "account": {…} or [{…}, …]}} → our accounts. */
function accountsOf(body: unknown, sandbox: boolean | undefined): BrokerAccount[] {
  const profile = asRecord(body)?.profile;
  return listOf(asRecord(profile)?.account)
    .filter((account) => stringField(account, 'status') !== 'closed')
    .map((account) => {
      const id = stringField(account, 'account_number') ?? '';
      const type = stringField(account, 'type') ?? 'cash';
      // Behind an overridden base URL, sandbox accounts are told by their VA numbers.
      const demo = sandbox ?? id.startsWith('VA');
      return { id, name: `Tradier ${type} ${id}`, dataTitle: id, dataType: type, dataCurrency: 'USD', demo };
    })
    .filter((account) => account.id !== '');
}

/**
 * What a signal sends: its own order, or for close the order that flattens the position (the
 * symbol's open orders canceled first, unless it is only previewed: a preview changes nothing).
 * A close of part of the position keeps the open orders: they include the stop-loss and
 * take-profit orders of the part still held, which a trader closing half expects to keep.
 */
async function resolveOrder(
  http: HttpClient,
  input: PlaceOrderInput,
  preview = false,
): Promise<{ order: Order; left?: number; canceled?: string[] }> {
  const { order, accountId } = input;
  if (order.action !== 'close') return { order };
  const noPosition = () => new BrokerError('InvalidOrder', TRADIER_TITLE, `no position in ${order.symbol} to close`);
  if (order.quantity !== undefined || preview) {
    const closing = await closingOrder(http, accountId, order.symbol, order);
    // Its exits are cut to what is left once it is placed (fitExits).
    if (closing?.partial) return { order: withoutPartial(closing), left: closing.left };
    if (closing && preview) return { order: withoutPartial(closing) };
    if (preview) throw noPosition();
  }
  const canceled = await cancelOpenOrders(http, accountId, order.symbol);
  const closing = await closingOrder(http, accountId, order.symbol, order);
  if (!closing) throw closeFailedAfterCancel(noPosition(), order.symbol, canceled);
  return { order: withoutPartial(closing), canceled };
}

const withoutPartial = ({
  partial: _partial,
  left: _left,
  ...order
}: Order & { partial: boolean; left: number }): Order => order;

async function place(http: HttpClient, accountId: string, order: Order, tag?: string): Promise<OrderResponse> {
  const form = toTradierForm(order, tag);
  const answer = await http.request({ method: 'POST', path: accountPath(accountId, '/orders'), form });
  return fromPlacement(answer.body);
}

export interface TradierBrokerOptions {
  /** Live and sandbox origins; tests point them at two fakes. */
  environments?: BrokerEnvironments;
}

export type TradierBroker = BrokerWith<
  | 'checkOrder'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
  | 'lastPrice'
>;

export function createTradierBroker(options: TradierBrokerOptions = {}): TradierBroker {
  const environments = options.environments ?? TRADIER_ENVIRONMENTS;
  const client = (ctx: BrokerContext, session: BrokerSession, accountId: string) =>
    sessionClient(ctx, session, accountId, environments);
  const broker: TradierBroker = {
    descriptor: tradierDescriptor,

    async connect(ctx: BrokerContext, input): Promise<BrokerSession> {
      const accessToken = input.credentials.accessToken?.trim() ?? '';
      if (!accessToken) throw new BrokerError('AuthenticationError', TRADIER_TITLE, 'access token is required');
      const found = await connectToEnvironment(ctx, environments, 'live', async (baseUrl) => {
        const answer = await tradierClient(ctx, baseUrl, accessToken).request({ path: '/v1/user/profile' });
        return answer.body;
      });
      const accounts = accountsOf(found.result, found.overridden ? undefined : found.kind === 'demo');
      if (!accounts.length)
        throw new BrokerError('AuthenticationError', TRADIER_TITLE, 'no open account for this token');
      const sandbox = accounts.every((account) => account.demo);
      return { secrets: { accessToken, environment: sandbox ? 'sandbox' : 'live' }, accounts };
    },

    // placeOrder's own mapping of an order it sends as given (a close is built from the position).
    checkOrder({ order, clientOrderId }) {
      if (order.action !== 'cancel' && order.action !== 'close') toTradierForm(order, tagOf(clientOrderId));
    },

    async placeOrder(ctx, session, input) {
      const http = client(ctx, session, input.accountId);
      const { order, accountId } = input;
      if (order.action === 'cancel') {
        const canceled = await cancelOpenOrders(http, accountId, order.symbol);
        const description = `Canceled ${canceled.length} open order(s) of ${order.symbol.replace(/ /g, '')}`;
        return { id: canceled.join(',') || input.clientOrderId, status: 'canceled', status_description: description };
      }
      const tag = tagOf(input.clientOrderId);
      const existing = await findByTag(http, accountId, tag);
      if (existing) return existing;
      // Not sent: ours may be among the orders not read, and a second one would be a double order.
      if (existing === undefined)
        throw new BrokerError(
          'BrokerUnavailable',
          TRADIER_TITLE,
          'too many orders today to check that this signal was not placed already; nothing was sent',
        );
      const { order: resolved, left, canceled = [] } = await resolveOrder(http, input);
      const placed = await place(http, accountId, resolved, tag).catch((error: unknown) => {
        throw closeFailedAfterCancel(error, resolved.symbol, canceled);
      });
      return left ? fitExits(http, accountId, resolved, left, placed) : placed;
    },

    async previewOrder(ctx, session, input) {
      const http = client(ctx, session, input.accountId);
      if (input.order.action === 'cancel')
        throw new BrokerError('InvalidOrder', TRADIER_TITLE, 'cancel cannot be previewed');
      const tag = tagOf(input.clientOrderId);
      const form = { ...toTradierForm((await resolveOrder(http, input, true)).order, tag), preview: 'true' };
      // A preview changes nothing at Tradier: an unknown outcome is harmless.
      const answer = await http.request({
        method: 'POST',
        path: accountPath(input.accountId, '/orders'),
        form,
        mutating: false,
      });
      return fromPreview(answer.body, tag);
    },

    async cancelOrder(ctx, session, target) {
      const http = client(ctx, session, target.accountId);
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await http.request({
        method: 'DELETE',
        path: accountPath(target.accountId, `/orders/${encodeURIComponent(orderId)}`),
      });
    },

    async closePosition(ctx, session, accountId, symbol) {
      const http = client(ctx, session, accountId);
      await cancelOpenOrders(http, accountId, symbol);
      const closing = await closingOrder(http, accountId, symbol);
      if (!closing) throw new BrokerError('InvalidOrder', TRADIER_TITLE, `no position in ${symbol} to close`);
      return place(http, accountId, withoutPartial(closing));
    },

    findByBrokerId: (ctx, session, accountId, orderId) => findById(client(ctx, session, accountId), accountId, orderId),

    async listRecentOrders(ctx, session, { accountId, clientOrderId, from }) {
      // Found is found, whenever the window starts (an open order is listed any day); absence is
      // proved only for a window within the listed day.
      const found = await findByTag(client(ctx, session, accountId), accountId, tagOf(clientOrderId));
      if (found) return [{ order: found, match: 'id' }];
      if (found === undefined) return null;
      return from < startOfListedDay((ctx.now ?? Date.now)()) ? null : [];
    },

    async getHoldings(ctx, session, accountId): Promise<Holdings> {
      const http = client(ctx, session, accountId);
      const [balancesAnswer, positions] = await Promise.all([
        http.request({ path: accountPath(accountId, '/balances') }),
        listPositions(http, accountId),
      ]);
      const balances = asRecord(balancesAnswer.body)?.balances;
      const buyingPower =
        decimalField(asRecord(balances)?.margin, 'stock_buying_power') ??
        decimalField(asRecord(balances)?.cash, 'cash_available');
      const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
      return {
        ...optional('cash', decimalField(balances, 'total_cash')),
        ...optional('equity', decimalField(balances, 'total_equity')),
        ...optional('buyingPower', buyingPower),
        currency: 'USD',
        positions: positions.map((position) => {
          const symbol = stringField(position, 'symbol') ?? '';
          const quantity = decimalField(position, 'quantity') ?? 0;
          const cost = decimalField(position, 'cost_basis');
          // Option cost basis is per contract of 100; the average price is quoted per share.
          const multiplier = /\d{6}[CP]\d{8}$/.test(symbol) ? 100 : 1;
          const averagePrice =
            cost !== undefined && quantity !== 0 ? Math.abs(cost / quantity / multiplier) : undefined;
          return { symbol, quantity, ...optional('averagePrice', averagePrice) };
        }),
      };
    },

    // GET /v1/markets/quotes: `last` (null before a first trade), else the bid/ask midpoint; an
    // unknown symbol comes back under `unmatched_symbols`, with no `quote`.
    async lastPrice(ctx, session, accountId, symbol) {
      const answer = await client(ctx, session, accountId).request({
        path: '/v1/markets/quotes',
        query: { symbols: instrumentOf(symbol) },
      });
      const [quote] = listOf(asRecord(asRecord(answer.body)?.quotes)?.quote);
      const last = decimalField(quote, 'last');
      if (last !== undefined) return last;
      const bid = decimalField(quote, 'bid');
      const ask = decimalField(quote, 'ask');
      return bid !== undefined && ask !== undefined ? (bid + ask) / 2 : null;
    },
  };
  return broker;
}
