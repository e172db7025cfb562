// Saxo OpenAPI: OAuth 2 sign-in, accounts by AccountKey, instruments resolved to Uic and
// AssetType, orders (with related take-profit and stop-loss orders, or as one-cancels-other
// pairs) on /trade/v2/orders. Our signal id is the ExternalReference and the X-Request-ID of the
// placement; Saxo echoes the reference in open orders and order activities, where a lost order is
// found again.
import { type Order, type OrderLeg, parseSymbol } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel } from '../../core/exits-cut.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { stringField } from '../../core/json-read.ts';
import { createSaxoApi } from './api.ts';
import { SAXO_SIM_URL, SAXO_TITLE, saxoDescriptor } from './descriptor.ts';
import { checkInstrument, createInstruments } from './instruments.ts';
import { findById, listByReference, openOrders } from './lookup.ts';
import { type SaxoOco, type SaxoOcoPlan, type SaxoOrder, type ToInstrument, toSaxoOco, toSaxoOrder } from './mapper.ts';
import { authorizationUrl, exchangeCode, REFRESH_MARGIN_MS, type SaxoTokens, tokenSecrets } from './oauth.ts';
import { accountKeyOf, cancelOrders, placeOrder, precheck } from './orders.ts';
import { cancelOpenOrders, closingOrder, fitExits, holdingsOf } from './portfolio.ts';
import { toAccounts } from './reader.ts';

export interface SaxoBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
  fetch?: typeof fetch;
}

/** Our signal id as ExternalReference and X-Request-ID: itself when it fits, else its hash. */
export const saxoReference = (id: string) => boundedId(id, 50);
/** How far back a duplicate's first order is looked for (Saxo's window is 15 s). */
const DUPLICATE_WINDOW_MS = 60_000;

function sessionOf(tokens: SaxoTokens, accounts: BrokerAccount[], clientKey: string): BrokerSession {
  return {
    secrets: { ...tokenSecrets(tokens), clientKey },
    accounts,
    expiresAt: tokens.refreshExpiresAt,
    refreshAt: Math.min(tokens.accessExpiresAt - REFRESH_MARGIN_MS, tokens.refreshExpiresAt),
  };
}

export type SaxoBroker = BrokerWith<
  | 'authorizationUrl'
  | 'refresh'
  | 'checkOrder'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
>;

type Plan =
  | { kind: 'close' }
  | { kind: 'cancel' }
  | { kind: 'oco'; oco: SaxoOcoPlan }
  | { kind: 'single'; toInstrument: ToInstrument };

/** Every refusal of an order that needs no instrument: placing's first step, and all of Broker.checkOrder. */
function planOf(order: Order, reference: string): Plan {
  if (order.action === 'close' || order.action === 'cancel') {
    checkInstrument(order);
    return order.action === 'close' ? { kind: 'close' } : { kind: 'cancel' };
  }
  if (order.legs) {
    const oco = toSaxoOco(order, reference);
    for (const leg of oco.legs) checkInstrument(leg);
    return { kind: 'oco', oco };
  }
  checkInstrument(order);
  return { kind: 'single', toInstrument: toSaxoOrder(order, reference) };
}

export function createSaxoBroker(options: SaxoBrokerOptions = {}): SaxoBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createSaxoApi({ now, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const instruments = createInstruments(api);

  const place = async (
    ctx: BrokerContext,
    session: BrokerSession,
    accountKey: string,
    order: SaxoOrder | SaxoOco,
    reference: string,
  ) => {
    const sentAt = now(ctx);
    return placeOrder(api, ctx, session, order, async () => {
      const listed = await listByReference(api, ctx, session, {
        accountId: accountKey,
        reference,
        from: sentAt - DUPLICATE_WINDOW_MS,
        to: sentAt + DUPLICATE_WINDOW_MS,
      });
      return listed?.[0]?.order ?? null;
    });
  };

  /** A one-cancels-other pair (checked: planOf), each leg's instrument resolved. */
  const ocoOf = async (
    ctx: BrokerContext,
    session: BrokerSession,
    order: Order,
    { legs, build }: SaxoOcoPlan,
    accountKey: string,
  ): Promise<SaxoOco> => {
    const resolve = (leg: OrderLeg) =>
      instruments.resolve(ctx, session, { ...leg, ...(order.extra ? { extra: order.extra } : {}) });
    const first = await resolve(legs[0]);
    const second = await resolve(legs[1]);
    return build([first, second], accountKey);
  };

  const close = async (
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    named: Pick<Order, 'symbol' | 'class' | 'extra' | 'quantity'>,
    reference: string,
  ) => {
    const accountKey = accountKeyOf(session, accountId);
    const instrument = await instruments.resolve(ctx, session, named);
    const position = () => closingOrder(api, ctx, session, accountKey, instrument, reference, named.quantity);
    let closing = await position();
    // A close of all of it cancels the instrument's open orders first: a stop loss or take profit
    // left working sold (or bought), once triggered, what is no longer held (a position opened the
    // other way). A close of part keeps them, cut to what is left once it is placed. An order no
    // longer open when canceled may have filled: the position is read again before the close.
    let canceled: string[] = [];
    if (closing.left === 0) {
      const { answer, gone } = await cancelOpenOrders(api, ctx, session, accountKey, instrument, named);
      canceled = answer.id.split(',').filter(Boolean);
      if (gone.length)
        closing = await position().catch((error: unknown) => {
          throw closeFailedAfterCancel(error, named.symbol.trim(), canceled);
        });
    }
    const placed = await place(ctx, session, accountKey, closing.order, reference).catch((error: unknown) => {
      throw closeFailedAfterCancel(error, named.symbol.trim(), canceled);
    });
    return closing.left === 0 ? placed : fitExits(api, ctx, session, closing.order, closing.left, placed);
  };

  /** Cancels `ids`; an answer that lists none of them canceled is a refusal. */
  const cancelConfirmed = async (ctx: BrokerContext, session: BrokerSession, accountKey: string, ids: string[]) => {
    const { canceled, refused, gone } = await cancelOrders(api, ctx, session, accountKey, ids);
    if (canceled.length === 0 && gone.length)
      throw new BrokerError('OrderNotFound', SAXO_TITLE, `no longer open (filled or canceled): ${gone.join(', ')}`);
    if (canceled.length === 0)
      throw new BrokerError('InvalidOrder', SAXO_TITLE, refused.join('; ') || 'the cancel was not confirmed');
  };

  const broker: SaxoBroker = {
    descriptor: saxoDescriptor,
    authorizationUrl,

    async connect(ctx, input) {
      const code = input.credentials.code?.trim();
      if (!code) throw new BrokerError('AuthenticationError', SAXO_TITLE, 'no authorization code; sign in again');
      const tokens = await exchangeCode(ctx, code, now(ctx), options.fetch);
      const signedIn = sessionOf(tokens, [], '');
      const { body } = await api.call(ctx, signedIn, { path: '/port/v1/accounts/me' });
      const { accounts, clientKey } = toAccounts(body, ctx.baseUrl === SAXO_SIM_URL);
      if (accounts.length === 0 || !clientKey)
        throw new BrokerError('AuthenticationError', SAXO_TITLE, 'no active account');
      return sessionOf(tokens, accounts, clientKey);
    },

    async refresh(ctx, session) {
      return sessionOf(await api.refresh(ctx, session), session.accounts, session.secrets.clientKey ?? '');
    },

    // placeOrder's own checks, up to the instrument lookups.
    checkOrder({ order, clientOrderId }) {
      planOf(order, saxoReference(clientOrderId));
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      const accountKey = accountKeyOf(session, accountId);
      const reference = saxoReference(clientOrderId);
      const plan = planOf(order, reference);
      if (plan.kind === 'close') return close(ctx, session, accountId, order, reference);
      if (plan.kind === 'oco')
        return place(ctx, session, accountKey, await ocoOf(ctx, session, order, plan.oco, accountKey), reference);
      const instrument = await instruments.resolve(ctx, session, order);
      if (plan.kind === 'cancel')
        return (await cancelOpenOrders(api, ctx, session, accountKey, instrument, order)).answer;
      return place(ctx, session, accountKey, plan.toInstrument(instrument, accountKey), reference);
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      const accountKey = accountKeyOf(session, accountId);
      const plan = planOf(order, saxoReference(clientOrderId));
      if (plan.kind === 'close' || plan.kind === 'cancel') {
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      }
      // Saxo prechecks single orders: each leg of a pair on its own.
      if (plan.kind === 'oco') {
        const [first, second] = (await ocoOf(ctx, session, order, plan.oco, accountKey)).Orders;
        const checked = await precheck(api, ctx, session, first, clientOrderId);
        const other = await precheck(api, ctx, session, second, clientOrderId);
        return { ...checked, status_description: `${checked.status_description} ${other.status_description}` };
      }
      const instrument = await instruments.resolve(ctx, session, order);
      return precheck(api, ctx, session, plan.toInstrument(instrument, accountKey), clientOrderId);
    },

    async cancelOrder(ctx, session, target) {
      const accountKey = accountKeyOf(session, target.accountId);
      const { brokerOrderId, clientOrderId } = target;
      // By our id: the open orders carry it as ExternalReference (only open orders can be canceled).
      if (!brokerOrderId && clientOrderId) {
        const reference = saxoReference(clientOrderId);
        const open = await openOrders(api, ctx, session, accountKey);
        const ids = open
          .filter((order) => stringField(order, 'ExternalReference') === reference)
          .map((order) => stringField(order, 'OrderId') ?? '');
        if (ids.length === 0)
          throw new BrokerError('OrderNotFound', SAXO_TITLE, `no open order with client order id ${clientOrderId}`);
        return cancelConfirmed(ctx, session, accountKey, ids);
      }
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await cancelConfirmed(ctx, session, accountKey, [orderId]);
    },

    closePosition(ctx, session, accountId, symbol) {
      const { canonical, class: orderClass } = parseSymbol(symbol);
      const reference = saxoReference(`close-${symbol}-${now(ctx)}`);
      return close(ctx, session, accountId, { symbol: canonical, class: orderClass }, reference);
    },

    findByBrokerId(ctx, session, accountId, orderId) {
      accountKeyOf(session, accountId);
      return findById(api, ctx, session, orderId);
    },

    listRecentOrders(ctx, session, query) {
      accountKeyOf(session, query.accountId);
      const reference = saxoReference(query.clientOrderId);
      return listByReference(api, ctx, session, {
        accountId: query.accountId,
        reference,
        from: query.from,
        // The audit's last entry up to now: an order of the window canceled or filled since reads
        // as it ended, not as the working order it was at the window's end.
        to: Math.max(query.to, now(ctx)),
      });
    },

    getHoldings(ctx, session, accountId) {
      return holdingsOf(api, ctx, session, accountKeyOf(session, accountId));
    },
  };
  return broker;
}
