// IBKR's order questions ("reply required", WIRE.md §4): a placed order may be answered with
//   [{"id":"99097238-…","message":["You are submitting an order without market data. …"],"messageIds":["o354"]}]
// and waits for POST /iserver/reply/{id} {"confirmed": true}. We confirm only warnings about the
// order the sender chose that do not question its terms: the two WIRE.md names (o163, price away
// from the market by more than the percentage constraint; o354, no market data) and the order
// type risk notices of IBKR's suppressible list. Anything else (size or value limits the user set,
// crossing their own order, allocations, called bonds, unknown ids) is declined and refused.
import { asRecord, stringField } from '../../core/json-read.ts';

export const CONFIRMED_QUESTIONS: Readonly<Record<string, string>> = {
  o163: 'price exceeds the percentage constraint',
  o354: 'no market data',
  o10151: 'market order risks',
  o10152: 'stop order risks once active',
  o10331: 'stop order types',
};

/** Suppressed when the brokerage session opens, so IBKR does not ask them at all. */
export const SUPPRESSED_QUESTIONS = Object.keys(CONFIRMED_QUESTIONS);

/** IBKR (ibind) gives up after this many rounds; so do we. */
export const MAX_REPLY_ROUNDS = 20;

export interface Question {
  replyId: string;
  messageIds: string[];
  messages: string[];
}

/** The question of an order answer, if it is one. */
export function questionOf(body: unknown): Question | undefined {
  const first = asRecord(Array.isArray(body) ? body[0] : undefined);
  const replyId = stringField(first, 'id');
  if (!first || !replyId || !Array.isArray(first.message)) return undefined;
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return { replyId, messageIds: strings(first.messageIds), messages: strings(first.message) };
}

/** True when every warning of the question is one we confirm. */
export function isConfirmable(question: Question): boolean {
  return question.messageIds.length > 0 && question.messageIds.every((id) => id in CONFIRMED_QUESTIONS);
}

/** The refusal's text: the ids and IBKR's first line of each message. */
export function declinedText(question: Question): string {
  const firstLines = question.messages.map((message) => message.split('\n')[0]?.trim()).filter(Boolean);
  const ids = question.messageIds.length ? question.messageIds.join(', ') : 'no message id';
  return `the order needs a confirmation we do not give automatically (${ids}: ${firstLines.join(' ')}); nothing was placed`;
}
