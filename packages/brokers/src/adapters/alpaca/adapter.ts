// The Alpaca broker (Trading API v2): API key id and secret, live or paper, stocks, options and
// crypto, brackets, our signal id as client_order_id (Alpaca refuses a repeat with 422).
import type { BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { type BrokerEnvironments, connectToEnvironment } from '../../core/environments.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { alpacaClient, sessionClient } from './client.ts';
import { ALPACA_ENVIRONMENTS, ALPACA_TITLE, alpacaDescriptor } from './descriptor.ts';
import { cancelSymbol, classOf, closePart, closeSymbol } from './exits.ts';
import { fromAlpacaOrder, toAlpacaOrder } from './mapper.ts';

export interface AlpacaBrokerOptions {
  /** Live and paper origins; tests point them at two fakes. */
  environments?: BrokerEnvironments;
}

/** Replacements followed at most (a user editing an order again and again). */
const MAX_REPLACEMENTS = 10;

const orderById = (http: HttpClient, orderId: string) =>
  http.request({ path: `/v2/orders/${encodeURIComponent(orderId)}`, accept: [404] });

/**
 * An order replaced (PATCH: our exits cut by a partial close, or the user's edit in Alpaca) is not
 * over: it lives on as the order in its `replaced_by`, which may still fill. Its last replacement is
 * the order's state; one that cannot be found leaves it working (not final), since it was not ended.
 */
async function current(http: HttpClient, body: unknown) {
  const first = stringField(body, 'id');
  let order = body;
  for (let hop = 0; hop < MAX_REPLACEMENTS && stringField(order, 'status') === 'replaced'; hop++) {
    const next = stringField(order, 'replaced_by');
    const answer = next ? await orderById(http, next) : undefined;
    if (!answer || answer.status === 404) {
      const found = fromAlpacaOrder(order);
      return {
        ...found,
        status: 'accepted' as const,
        status_description: `${found.status_description}, its replacement not found`,
      };
    }
    order = answer.body;
  }
  const found = fromAlpacaOrder(order);
  return found.id === first
    ? found
    : { ...found, status_description: `${found.status_description} (replacing ${first})` };
}

async function findByClientId(http: HttpClient, clientOrderId: string) {
  const answer = await http.request({
    path: '/v2/orders:by_client_order_id',
    query: { client_order_id: clientOrderId },
    accept: [404],
  });
  return answer.status === 404 ? null : current(http, answer.body);
}

async function findByBrokerId(http: HttpClient, orderId: string) {
  const answer = await orderById(http, orderId);
  return answer.status === 404 ? null : current(http, answer.body);
}

function account(body: unknown, demo: boolean) {
  const id = stringField(body, 'account_number') ?? stringField(body, 'id');
  const status = stringField(body, 'status');
  if (!id) throw new BrokerError('BrokerUnavailable', ALPACA_TITLE, 'unexpected account answer');
  if (status !== 'ACTIVE')
    throw new BrokerError('AuthenticationError', ALPACA_TITLE, `account ${id} is ${status ?? 'not active'}`);
  const margin = (decimalField(body, 'multiplier') ?? 1) > 1;
  return {
    id,
    name: `Alpaca ${demo ? 'paper' : 'live'} ${id}`,
    dataTitle: id,
    dataType: margin ? 'margin' : 'cash',
    dataCurrency: stringField(body, 'currency') ?? 'USD',
    demo,
  };
}

export type AlpacaBroker = BrokerWith<
  'checkOrder' | 'cancelOrder' | 'closePosition' | 'getHoldings' | 'findByClientId' | 'findByBrokerId'
>;

export function createAlpacaBroker(options: AlpacaBrokerOptions = {}): AlpacaBroker {
  const environments = options.environments ?? ALPACA_ENVIRONMENTS;
  const client = (ctx: BrokerContext, session: BrokerSession, accountId: string) =>
    sessionClient(ctx, session, accountId, environments);

  const broker: AlpacaBroker = {
    descriptor: alpacaDescriptor,

    async connect(ctx, input) {
      const apiKeyId = input.credentials.apiKeyId?.trim() ?? '';
      const apiSecretKey = input.credentials.apiSecretKey?.trim() ?? '';
      if (!apiKeyId || !apiSecretKey)
        throw new BrokerError('AuthenticationError', ALPACA_TITLE, 'API key id and secret are required');
      // Paper key ids start with PK, live ones with AK: try that environment first.
      const hint = apiKeyId.startsWith('PK') ? 'demo' : 'live';
      const found = await connectToEnvironment(ctx, environments, hint, async (baseUrl) => {
        const answer = await alpacaClient(ctx, baseUrl, { apiKeyId, apiSecretKey }).request({ path: '/v2/account' });
        return answer.body;
      });
      const demo = found.kind === 'demo';
      return {
        secrets: { apiKeyId, apiSecretKey, environment: demo ? 'paper' : 'live' },
        accounts: [account(found.result, demo)],
      };
    },

    // placeOrder's own mapping, before anything is sent.
    checkOrder({ order, clientOrderId }) {
      if (order.action === 'cancel') return;
      if (order.action === 'close') closePart(order);
      else toAlpacaOrder(order, clientOrderId);
    },

    async placeOrder(ctx, session, input) {
      const http = client(ctx, session, input.accountId);
      const { order, clientOrderId } = input;
      if (order.action === 'cancel') return cancelSymbol(http, order, clientOrderId);
      if (order.action === 'close') return closeSymbol(http, order.symbol, order.class, closePart(order));
      const request = toAlpacaOrder(order, clientOrderId);
      try {
        const answer = await http.request({ method: 'POST', path: '/v2/orders', json: request });
        return fromAlpacaOrder(answer.body, true);
      } catch (error) {
        // Placed before (a resent signal, a retried job): answer with that order.
        if (isBrokerError(error) && error.kind === 'DuplicateOrder') {
          const existing = await findByClientId(http, clientOrderId);
          if (existing) return existing;
        }
        throw error;
      }
    },

    async cancelOrder(ctx, session, target) {
      const http = client(ctx, session, target.accountId);
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      const answer = await http.request({
        method: 'DELETE',
        path: `/v2/orders/${encodeURIComponent(orderId)}`,
        accept: [404],
      });
      if (answer.status === 404) throw new BrokerError('OrderNotFound', ALPACA_TITLE, `order ${orderId} not found`);
    },

    closePosition(ctx, session, accountId, symbol) {
      return closeSymbol(client(ctx, session, accountId), symbol, classOf(symbol));
    },

    findByClientId: (ctx, session, accountId, clientOrderId) =>
      findByClientId(client(ctx, session, accountId), clientOrderId),
    findByBrokerId: (ctx, session, accountId, orderId) => findByBrokerId(client(ctx, session, accountId), orderId),

    async getHoldings(ctx, session, accountId): Promise<Holdings> {
      const http = client(ctx, session, accountId);
      const [accountAnswer, positionsAnswer] = await Promise.all([
        http.request({ path: '/v2/account' }),
        http.request({ path: '/v2/positions' }),
      ]);
      const body = accountAnswer.body;
      const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
      return {
        ...optional('cash', decimalField(body, 'cash')),
        ...optional('equity', decimalField(body, 'equity')),
        ...optional('buyingPower', decimalField(body, 'buying_power')),
        currency: stringField(body, 'currency') ?? 'USD',
        positions: listOf(positionsAnswer.body).map((position) => ({
          symbol: stringField(position, 'symbol') ?? '',
          quantity: decimalField(position, 'qty') ?? 0,
          ...optional('averagePrice', decimalField(position, 'avg_entry_price')),
          ...optional('marketValue', decimalField(position, 'market_value')),
        })),
      };
    },
  };
  return broker;
}
