// Placing tickets and IBKR's answers to it (WIRE.md §4): the POST (and each reply) answers one of
//   [{"order_id":"1370093239","order_status":"PreSubmitted"}]          placed (one per ticket, entry first)
//   [{"id":"9909…","message":["…Are you sure…?"],"messageIds":["o354"]}]  a question (questions.ts)
//   {"error":"Order not confirmed "}                                     a refusal, still HTTP 200
//   {"messageId":"p12","orderId":123456789,"prompt":true,"text":"…"}     placed, with a prompt to answer in IBKR
// Questions are answered until the order is placed, at most MAX_REPLY_ROUNDS times. A modify
// (POST …/order/{orderId}, one ticket) is answered the same way.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import type { IbkrApi } from './api.ts';
import { IBKR_TITLE } from './descriptor.ts';
import type { Ticket } from './mapper.ts';
import { declinedText, isConfirmable, MAX_REPLY_ROUNDS, questionOf } from './questions.ts';
import { fromPlaced } from './reader.ts';

/** The account's path; the account must belong to the connection. */
export function accountPath(session: BrokerSession, accountId: string): string {
  checkAccountInConnection(IBKR_TITLE, session, accountId);
  return `/iserver/account/${encodeURIComponent(accountId)}`;
}

/** After a submission an unreadable answer may still be a placed order: reconciliation decides. */
const unreadable = (what: string) =>
  new BrokerError('BrokerUnavailable', IBKR_TITLE, `unexpected answer: ${what}`, { outcomeUnknown: true });

function placedOf(answer: unknown): OrderResponse {
  const prompt = asRecord(answer);
  if (prompt?.prompt === true && stringField(prompt, 'orderId')) {
    const text = stringField(prompt, 'text')?.split('\n').at(-1)?.trim() ?? '';
    return {
      id: stringField(prompt, 'orderId') ?? '',
      status: 'accepted',
      status_description: `${IBKR_TITLE} order placed; it asks a question to answer in IBKR (${stringField(prompt, 'messageId') ?? 'prompt'}: ${text})`,
    };
  }
  const placed = listOf(answer)
    .map(fromPlaced)
    .find((order) => order !== undefined);
  if (!placed) throw unreadable('no order id');
  return placed;
}

/** Places the tickets once the connection's previous submission was answered (WIRE.md §4). */
export function submitTickets(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  tickets: Ticket[],
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}/orders`;
  return api.serially(ctx, session, () => submit(api, ctx, session, path, { orders: tickets }));
}

/**
 * Modifies a working order: POST …/order/{orderId} with its full ticket again, the changes in it
 * (WIRE.md §7), answered as placing is (questions included).
 */
export function modifyTicket(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  orderId: string,
  ticket: Ticket,
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}/order/${encodeURIComponent(orderId)}`;
  return api.serially(ctx, session, () => submit(api, ctx, session, path, ticket));
}

async function submit(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  path: string,
  json: { orders: Ticket[] } | Ticket,
): Promise<OrderResponse> {
  let answer = (await api.call(ctx, session, { method: 'POST', path, json })).body;
  for (let round = 1; ; round++) {
    const question = questionOf(answer);
    if (!question) return placedOf(answer);
    const reply = (confirmed: boolean) =>
      api.call(ctx, session, {
        method: 'POST',
        path: `/iserver/reply/${encodeURIComponent(question.replyId)}`,
        json: { confirmed },
      });
    if (!isConfirmable(question)) {
      // Declined explicitly, so the order is discarded at once; its answer changes nothing.
      await reply(false).catch(() => undefined);
      throw new BrokerError('InvalidOrder', IBKR_TITLE, declinedText(question));
    }
    if (round > MAX_REPLY_ROUNDS) throw unreadable(`still asking after ${MAX_REPLY_ROUNDS} confirmations`);
    answer = (await reply(true)).body;
  }
}
