// close and cancel signals at IBKR, which has no call for either: cancel the open orders of the
// symbol's contract (DELETE /iserver/account/{accountId}/order/{orderId}, an acknowledgement
// {"msg":"Request was submitted",…}), and for close send a market order against the position
// GET /portfolio/{accountId}/positions/0 shows (the exits of a part kept, cut to what is left:
// cut-exits.ts). A repeated close carries the same cOID, which
// IBKR refuses within 24 hours, so it cannot close twice.
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { isBrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel } from '../../core/exits-cut.ts';
import { decimalField, type JsonRecord, listOf } from '../../core/json-read.ts';
import type { IbkrApi } from './api.ts';
import type { Contracts } from './contracts.ts';
import { fitExits } from './cut-exits.ts';
import { IBKR_TITLE } from './descriptor.ts';
import { conidOf } from './instrument.ts';
import { liveOrders } from './lookup.ts';
import { entryTicket, invalid } from './mapper.ts';
import { WORKING_STATUSES } from './reader.ts';
import { accountPath, submitTickets } from './submit.ts';

/** IBKR pages positions by 100. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

export interface AccountCall {
  api: IbkrApi;
  ctx: BrokerContext;
  session: BrokerSession;
  accountId: string;
}

export async function cancelById({ api, ctx, session, accountId }: AccountCall, orderId: string): Promise<void> {
  const path = `${accountPath(session, accountId)}/order/${encodeURIComponent(orderId)}`;
  await api.call(ctx, session, { method: 'DELETE', path });
}

export async function positionsOf({ api, ctx, session, accountId }: AccountCall): Promise<JsonRecord[]> {
  accountPath(session, accountId);
  await api.portfolioAccounts(ctx, session);
  const positions: JsonRecord[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const path = `/portfolio/${encodeURIComponent(accountId)}/positions/${page}`;
    const items = listOf((await api.call(ctx, session, { path })).body);
    positions.push(...items);
    if (items.length < PAGE_SIZE) break;
  }
  return positions;
}

/** Cancels the working orders of one contract (`symbol`); their ids (those gone meanwhile are skipped). */
async function cancelContract(call: AccountCall, conid: number, symbol: string): Promise<string[]> {
  const open = (await liveOrders(call.api, call.ctx, call.session, call.accountId, true)).filter(
    (order) => conidOf(order.conid) === conid && WORKING_STATUSES.has(String(order.status).toLowerCase()),
  );
  return cancelEach(
    open.map((order) => String(order.orderId)),
    symbol,
    (id) =>
      cancelById(call, id).then(
        () => true,
        (error: unknown) => {
          if (!isBrokerError(error) || error.kind !== 'OrderNotFound') throw error;
          return false;
        },
      ),
  );
}

const canceledAnswer = (ids: string[], fallbackId: string, symbol: string): OrderResponse => ({
  id: ids.join(',') || fallbackId,
  status: 'canceled',
  status_description: `${IBKR_TITLE}: canceled ${ids.length} open order(s) of ${symbol}`,
});

export async function cancelSymbol(call: AccountCall, contracts: Contracts, order: Order, clientOrderId: string) {
  const { conid } = await contracts.resolve(call.ctx, call.session, order.symbol, order.class);
  return canceledAnswer(await cancelContract(call, conid, order.symbol.trim()), clientOrderId, order.symbol);
}

/**
 * Flattens the position (or `order.quantity` of it); `clientOrderId` is the closing order's cOID.
 * A close of all of it cancels the contract's open orders first (a stop left working would sell,
 * once triggered, what is no longer held); a close of part keeps them, cut to what is left.
 */
export async function closeSymbol(
  call: AccountCall,
  contracts: Contracts,
  order: Order,
  clientOrderId: string | undefined,
): Promise<OrderResponse> {
  const instrument = await contracts.resolve(call.ctx, call.session, order.symbol, order.class);
  const symbol = order.symbol.trim();
  const held = (await positionsOf(call)).find((position) => conidOf(position.conid) === instrument.conid);
  const position = Math.abs(decimalField(held, 'position') ?? 0);
  const quantity = order.quantity ?? position;
  if (position > 0 && quantity > position)
    throw invalid(`close quantity ${quantity} exceeds the position of ${position}`);
  const whole = position === 0 || quantity === position;
  const canceled = whole ? await cancelContract(call, instrument.conid, symbol) : [];
  if (position === 0) {
    if (canceled.length > 0) return canceledAnswer(canceled, clientOrderId ?? '', order.symbol);
    throw invalid(`no position in ${order.symbol}`);
  }
  const side = (decimalField(held, 'position') ?? 0) > 0 ? 'SELL' : 'BUY';
  const closing: Order = {
    ...order,
    action: side === 'SELL' ? 'sell' : 'buy',
    type: 'market',
    duration: 'day',
    quantity,
  };
  const ticket = entryTicket(closing, clientOrderId)(instrument, call.accountId);
  const answer = await submitTickets(call.api, call.ctx, call.session, call.accountId, [ticket]).catch(
    (error: unknown) => {
      // The symbol's open orders are gone by now (a close of all of it): a refusal says so.
      throw closeFailedAfterCancel(error, symbol, canceled);
    },
  );
  if (whole) return answer;
  const described = {
    ...answer,
    status_description: `Closing ${quantity} of ${position} ${symbol}: ${answer.status_description ?? 'close placed'}`,
  };
  return fitExits(call, instrument, side, position - quantity, described);
}
