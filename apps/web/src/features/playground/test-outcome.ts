// What the Test button shows (SPEC §2, §4, §8): the returned fields in a success box, an error
// box with name and message, or a warning text; each decorated with a random emoji.
import { cleanResult, parseOrderText } from '@router/orders';
import type { CombinedError } from '@urql/core';
import { errorMessage } from '../../lib/error-message.ts';
import type { AccountChoice } from './connectors.ts';

export const CONNECT_FIRST = 'Please, connect the broker to submit test orders';
export const RECONNECT = 'Please, reconnect the broker';

export type TestOutcome =
  | { kind: 'success'; fields: Record<string, unknown> }
  | { kind: 'error'; name: string; message: string }
  | { kind: 'warning'; message: string; connect?: boolean };

export type TestRequest = { connectorKey: string; accountId: string; data: string };

/**
 * What Test sends, and, when the text had to be repaired (single quotes, trailing commas,
 * comments…), the strict JSON body it became: the webhook parses strictly and refuses the text as
 * typed, so the result must say so and show the body to paste into the alert instead.
 */
export type PreparedTest = { request: TestRequest; strictBody?: string };

/** The checks before sending: a connector for the broker and account, active, and readable JSON. */
export function prepareTest(text: string, choice: AccountChoice | undefined): PreparedTest | TestOutcome {
  if (!choice) return { kind: 'warning', message: CONNECT_FIRST, connect: true };
  if (!choice.isActive) return { kind: 'warning', message: RECONNECT, connect: true };
  const parsed = parseOrderText(text);
  if (!parsed.ok) return { kind: 'error', name: 'Invalid JSON', message: parsed.error };
  const { connectorKey, accountId } = choice;
  // Strict JSON goes as typed, so the preview reads it as the hook would (JSON.stringify would turn
  // a 1e400 the hook refuses into null, "not given").
  if (!parsed.repaired) return { request: { connectorKey, accountId, data: text } };
  return {
    request: { connectorKey, accountId, data: JSON.stringify(parsed.value) },
    strictBody: JSON.stringify(parsed.value, null, 2),
  };
}

export const isOutcome = (value: PreparedTest | TestOutcome): value is TestOutcome => 'kind' in value;

/** The preview's answer: the order response with the normalized `order`, or the API error. */
export function previewOutcome(data: unknown, error: CombinedError | undefined): TestOutcome {
  if (error) {
    const first = error.graphQLErrors[0];
    if (first) {
      const status = first.extensions?.status;
      return { kind: 'error', name: typeof status === 'string' ? status : 'Error', message: errorMessage(first) };
    }
    return { kind: 'error', name: 'Error', message: errorMessage(error) };
  }
  const clean = cleanResult(data);
  if (typeof clean !== 'object' || clean === null || Array.isArray(clean)) {
    return { kind: 'warning', message: 'The broker returned no preview for this order.' };
  }
  const fields = clean as Record<string, unknown>;
  if (fields.status === 'rejected') {
    const description = fields.status_description;
    return { kind: 'warning', message: typeof description === 'string' ? description : 'The order was rejected.' };
  }
  return { kind: 'success', fields };
}

const EMOJI: Record<TestOutcome['kind'], readonly string[]> = {
  success: ['🚀', '🎯', '✅', '🎉', '📈', '💸', '🥳', '👌'],
  error: ['🙈', '🧐', '🤔', '🛑', '😬', '🔧', '🐛'],
  warning: ['⚠️', '🤨', '🧭', '🔌', '👀'],
};

/** A random emoji for the result box. */
export function pickEmoji(kind: TestOutcome['kind'], random: () => number = Math.random): string {
  const list = EMOJI[kind];
  return list[Math.floor(random() * list.length) % list.length] ?? '✨';
}
