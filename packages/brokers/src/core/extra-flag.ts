// A yes-or-no `extra` value (extended_hours, all_or_none) as senders write it: JSON's true or false,
// or as text, which Zapier's fields and scripts send ("true", Python's str(True) "True"). Anything
// else is refused: read as "not true", "True" or "yes" left a sender's flag off without a word.
import type { Order } from '@router/orders';

const FLAGS: Readonly<Record<string, boolean>> = { true: true, false: false };

/** The flag `extra[key]` gives, undefined when not given; `invalid` makes the refusal of another value. */
export function extraFlag(
  order: Pick<Order, 'extra'>,
  key: string,
  invalid: (message: string) => Error,
): boolean | undefined {
  const value = order.extra?.[key];
  if (value === undefined || typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (Object.hasOwn(FLAGS, text)) return FLAGS[text];
  throw invalid(`extra.${key} is true or false, not ${JSON.stringify(value)}`);
}
