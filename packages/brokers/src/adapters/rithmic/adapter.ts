// The Rithmic broker over R | Protocol (broker-specs/rithmic/WIRE.md): user, password and system
// name log in to the ORDER_PLANT (plant.ts), a session kept for the user's calls (pool.ts);
// orders go out with our signal id as user_tag, AUTO tagging and the trade route of their
// exchange, and are followed by their notifications (watch.ts). Rithmic does not refuse a
// repeated user_tag: the server's own idempotency keeps an order single, and after a lost answer
// the order is found by its user_tag in the replayed open orders and history (lookup.ts).
import type { BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { recordBrokerRequest } from '../../core/wire-log.ts';
import { contractOf, resolveContract } from './contracts.ts';
import { RITHMIC_TITLE, rithmicDescriptor } from './descriptor.ts';
import { openOrderTagged, orderByBasket, ordersBetween } from './lookup.ts';
import { checkOrder, orderRequest, responseOf, userTagOf } from './mapper.ts';
import {
  accountFields,
  brokerAccounts,
  checkAccount,
  listAccounts,
  readCredentials,
  secretsOf,
  subscribeToOrders,
  tradeRoutes,
  withPlant,
} from './plant.ts';
import { createPlantPool } from './pool.ts';
import { watchOrder } from './watch.ts';

export type RithmicBroker = BrokerWith<'checkOrder' | 'cancelOrder' | 'findByBrokerId' | 'listRecentOrders'> & {
  /** Logs out the kept sessions (shutdown, tests). */
  close(): Promise<void>;
};

const AUTO = 2;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function createRithmicBroker(options: { now?: () => number } = {}): RithmicBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const credentialsOf = (session: BrokerSession) => readCredentials(session.secrets);
  const pool = createPlantPool();

  const broker: RithmicBroker = {
    descriptor: rithmicDescriptor,

    async connect(ctx, input) {
      const credentials = readCredentials(input.credentials);
      const accounts = await withPlant(ctx, credentials, listAccounts, { checkSystemName: true });
      if (accounts.length === 0)
        throw new BrokerError('AuthenticationError', RITHMIC_TITLE, 'this user has no account on the order plant');
      return {
        secrets: secretsOf(credentials),
        accounts: brokerAccounts(accounts, credentials.systemName),
        branch: credentials.systemName,
      };
    },

    // placeOrder's own checks: the contract the symbol names (on today's clock) and the order.
    checkOrder({ order }) {
      checkOrder(order, contractOf(order, (options.now ?? Date.now)()));
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      checkAccount(session, accountId);
      const wanted = contractOf(order, now(ctx));
      checkOrder(order, wanted);
      const credentials = credentialsOf(session);
      const contract = await resolveContract(ctx, credentials, wanted, now(ctx));
      return pool.use(ctx, credentials, async (plant) => {
        let routes = await tradeRoutes(plant);
        // Asked once per session: an exchange it lacks is asked again before refusing.
        if (!routes.has(contract.exchange)) routes = await tradeRoutes(plant, true);
        const route = routes.get(contract.exchange);
        if (!route) {
          const known = [...routes.keys()].join(', ') || 'none';
          throw new BrokerError(
            'InvalidOrder',
            RITHMIC_TITLE,
            `no trade route for ${contract.exchange} (routes: ${known})`,
          );
        }
        await subscribeToOrders(plant, accountId);
        const destination = { ...accountFields(plant, accountId), trade_route: route, user_type: plant.userType };
        const request = orderRequest(order, contract, destination, clientOrderId);
        const watch = watchOrder(plant.connection, userTagOf(clientOrderId));
        // The trade's detail shows the order message as sent (no login secrets travel in it).
        recordBrokerRequest({
          method: 'WS',
          path: request.template_id === 330 ? 'RequestBracketOrder' : 'RequestNewOrder',
          body: request,
        });
        try {
          const { last } = await plant.connection.request(request, { mutating: true });
          const basketId = text(last.basket_id);
          if (!basketId)
            throw new BrokerError('BrokerUnavailable', RITHMIC_TITLE, 'the order was answered without its id', {
              outcomeUnknown: true,
            });
          return await watch.outcome(basketId, ctx.signal);
        } finally {
          watch.stop();
        }
      });
    },

    async cancelOrder(ctx, session, target) {
      const { accountId, brokerOrderId, clientOrderId } = target;
      checkAccount(session, accountId);
      if (!brokerOrderId && !clientOrderId)
        throw new BrokerError('InvalidOrder', RITHMIC_TITLE, 'no order id to cancel');
      await pool.use(ctx, credentialsOf(session), async (plant) => {
        // Only open orders can be canceled, and the open ones carry their user_tag: an exact match.
        const basketId = brokerOrderId ?? (await openOrderTagged(plant, accountId, userTagOf(clientOrderId ?? '')));
        if (!basketId)
          throw new BrokerError('OrderNotFound', RITHMIC_TITLE, `no open order with client order id ${clientOrderId}`);
        await plant.connection.request(
          { template_id: 316, ...accountFields(plant, accountId), basket_id: basketId, manual_or_auto: AUTO },
          { mutating: true, refusal: 'OrderNotFound' },
        );
      });
    },

    async findByBrokerId(ctx, session, accountId, brokerOrderId) {
      checkAccount(session, accountId);
      return pool.use(ctx, credentialsOf(session), (plant) => orderByBasket(plant, accountId, brokerOrderId, now(ctx)));
    },

    async listRecentOrders(ctx, session, query) {
      checkAccount(session, query.accountId);
      const tag = userTagOf(query.clientOrderId);
      const orders = await pool.use(ctx, credentialsOf(session), (plant) =>
        ordersBetween(plant, query.accountId, query.from, query.to, now(ctx)),
      );
      if (!orders) return null;
      return orders
        .filter((order) => order.user_tag === tag)
        .map((order) => ({ order: responseOf(order), match: 'id' as const }));
    },

    close: () => pool.close(),
  };
  return broker;
}
