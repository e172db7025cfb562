// Interactive Brokers through the Web API (Client Portal): OAuth 1.0a or the operator's Client
// Portal Gateway (credentials.ts), a brokerage session opened and kept (brokerage.ts), symbols
// resolved to contract ids (contracts.ts), tickets with our signal id as cOID (mapper.ts), IBKR's
// questions answered or declined (submit.ts), and orders found again by order_ref (lookup.ts).
import { type Order, type OrderLeg, parseSymbol } from '@router/orders';
import type { BrokerAccount, BrokerSecrets, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import { createIbkrApi, type IbkrApiOptions } from './api.ts';
import { createContracts } from './contracts.ts';
import { credentialSecrets, credentialsOf, readCredentials } from './credentials.ts';
import { IBKR_TITLE, ibkrDescriptor } from './descriptor.ts';
import { type AccountCall, cancelById, cancelSymbol, closeSymbol } from './exits.ts';
import { holdingsOf, previewTickets } from './holdings.ts';
import type { Instrument } from './instrument.ts';
import { findById, findOwnOrder, listOwnOrders } from './lookup.ts';
import { bracketTickets, type Ticket, type ToInstrument } from './mapper.ts';
import { comboTicket } from './mapper-combo.ts';
import { type LiveSession, requestLiveSessionToken } from './oauth.ts';
import { accountPath, submitTickets } from './submit.ts';

/** The live session token lasts about 24 hours; a new one is made this long before. */
export const REFRESH_MARGIN_MS = 60 * 60_000;

export type IbkrBroker = BrokerWith<
  | 'refresh'
  | 'checkOrder'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
> & { close(): void };

function sessionOf(secrets: BrokerSecrets, accounts: BrokerAccount[], lst: LiveSession | undefined): BrokerSession {
  if (!lst) return { secrets, accounts };
  const withToken = { ...secrets, liveSessionToken: lst.token, liveSessionTokenExpiresAt: String(lst.expiresAt) };
  return { secrets: withToken, accounts, refreshAt: lst.expiresAt - REFRESH_MARGIN_MS };
}

/** GET /iserver/accounts names the accounts; GET /portfolio/accounts describes them. */
function toAccounts(iserver: unknown, portfolio: unknown): BrokerAccount[] {
  const body = asRecord(iserver);
  const paper = body?.isPaper === true;
  const ids = Array.isArray(body?.accounts) ? body.accounts.filter((id): id is string => typeof id === 'string') : [];
  return ids.map((id) => {
    const detail = listOf(portfolio).find(
      (item) => stringField(item, 'accountId') === id || stringField(item, 'id') === id,
    );
    // Paper accounts start with D (DU…, DF…).
    const demo = paper || id.startsWith('D');
    const type = stringField(detail, 'type');
    const currency = stringField(detail, 'currency');
    return {
      id,
      name: `${IBKR_TITLE} ${demo ? 'paper ' : ''}${id}`,
      dataTitle: stringField(detail, 'accountTitle') ?? stringField(detail, 'displayName') ?? id,
      ...(type ? { dataType: type.toLowerCase() } : {}),
      ...(currency ? { dataCurrency: currency } : {}),
      demo,
    };
  });
}

function classOf(symbol: string): Order['class'] {
  const parsed = parseSymbol(symbol).class;
  return parsed === 'option' || parsed === 'future' || parsed === 'forex' ? parsed : 'stock';
}

/** Every refusal of a new order that needs no contract: placing's first step, and all of Broker.checkOrder. */
function ticketsOf(
  order: Order,
  clientOrderId: string,
):
  | { kind: 'combo'; legs: OrderLeg[]; on: (instruments: Instrument[], accountId: string) => Ticket }
  | { kind: 'single'; on: ToInstrument<Ticket[]> } {
  if (order.legs) return { kind: 'combo', legs: order.legs, on: comboTicket(order, order.legs, clientOrderId) };
  return { kind: 'single', on: bracketTickets(order, clientOrderId) };
}

export function createIbkrBroker(options: IbkrApiOptions = {}): IbkrBroker {
  const now = options.now ?? Date.now;
  const api = createIbkrApi(options);
  const contracts = createContracts(api, now);

  /** The tickets of an order: checked (ticketsOf), then its contracts looked up. */
  async function ticketsFor(call: AccountCall, order: Order, clientOrderId: string): Promise<Ticket[]> {
    const { ctx, session, accountId } = call;
    const planned = ticketsOf(order, clientOrderId);
    if (planned.kind === 'combo') {
      const instruments = [];
      for (const leg of planned.legs) instruments.push(await contracts.resolve(ctx, session, leg.symbol, leg.class));
      return [planned.on(instruments, accountId)];
    }
    return planned.on(await contracts.resolve(ctx, session, order.symbol, order.class), accountId);
  }

  const broker: IbkrBroker = {
    descriptor: ibkrDescriptor,

    async connect(ctx, input) {
      const credentials = readCredentials(ctx, input.credentials);
      const lst =
        credentials.mode === 'oauth'
          ? await requestLiveSessionToken(ctx, credentials, now(), options.fetch)
          : undefined;
      const pending = sessionOf(credentialSecrets(credentials), [], lst);
      const iserver = await api.accounts(ctx, pending, true);
      const accounts = toAccounts(iserver, await api.portfolioAccounts(ctx, pending));
      if (accounts.length === 0) throw new BrokerError('AuthenticationError', IBKR_TITLE, 'no trading account found');
      return { ...pending, accounts };
    },

    async refresh(ctx, session) {
      const credentials = credentialsOf(session.secrets);
      if (credentials.mode === 'gateway') return session;
      const lst = await requestLiveSessionToken(ctx, credentials, now(), options.fetch);
      return sessionOf(session.secrets, session.accounts, lst);
    },

    // placeOrder's own checks, up to the contract lookups.
    checkOrder({ order, clientOrderId }) {
      if (order.action !== 'cancel' && order.action !== 'close') ticketsOf(order, clientOrderId);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      accountPath(session, accountId);
      const call = { api, ctx, session, accountId };
      if (order.action === 'cancel') return cancelSymbol(call, contracts, order, clientOrderId);
      if (order.action === 'close') return closeSymbol(call, contracts, order, clientOrderId);
      const tickets = await ticketsFor(call, order, clientOrderId);
      try {
        return await submitTickets(api, ctx, session, accountId, tickets);
      } catch (error) {
        // Placed before (a resent signal): answer with that order, never a second one.
        if (isBrokerError(error) && error.kind === 'DuplicateOrder') {
          const ordered = order.legs?.length ? undefined : order.quantity;
          const existing = await findOwnOrder(api, ctx, session, accountId, clientOrderId, ordered);
          if (existing) return existing;
        }
        throw error;
      }
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      accountPath(session, accountId);
      if (order.action === 'close' || order.action === 'cancel')
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      const call = { api, ctx, session, accountId };
      return previewTickets(call, await ticketsFor(call, order, clientOrderId), clientOrderId);
    },

    async cancelOrder(ctx, session, { accountId, brokerOrderId, clientOrderId }) {
      const call = { api, ctx, session, accountId };
      accountPath(session, accountId);
      // By our id only when a list shows it exactly (no lookup by cOID exists).
      const orderId =
        brokerOrderId ??
        (clientOrderId ? (await findOwnOrder(api, ctx, session, accountId, clientOrderId))?.id : undefined);
      if (!orderId)
        throw new BrokerError(
          'OrderNotFound',
          IBKR_TITLE,
          `no order with client order id ${clientOrderId ?? ''}`.trim(),
        );
      await cancelById(call, orderId);
    },

    closePosition(ctx, session, accountId, symbol) {
      const order: Order = {
        symbol,
        class: classOf(symbol),
        action: 'close',
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      };
      return closeSymbol({ api, ctx, session, accountId }, contracts, order, undefined);
    },

    findByBrokerId: (ctx, session, accountId, orderId) => findById(api, ctx, session, accountId, orderId),
    listRecentOrders: (ctx, session, query) => listOwnOrders(api, ctx, session, query),
    getHoldings: (ctx, session, accountId) => holdingsOf({ api, ctx, session, accountId }),
    close: () => api.close(),
  };
  return broker;
}
