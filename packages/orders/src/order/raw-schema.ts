// The webhook body as senders write it (SPEC §3 "Order (webhook body)"), before normalization:
//   {"symbol": "AAPL", "action": "buy", "quantity": "10", "type": "limit", "limit_price": "{{close}} * 0.99"}
// Field names are exact snake_case; unknown fields are refused (a mistyped `stop_los_price` must
// not vanish). Numeric fields stay number-or-text here: expressions are evaluated in build-order.ts.
// Enumeration values are trimmed and lower-cased ("BUY" is buy). Built once at import.
import { z } from 'zod';
import { quoteCharacter } from '../errors.ts';
import { DURATIONS, ORDER_ACTIONS, ORDER_CLASSES, ORDER_GROUPS, ORDER_TYPES, QUANTITY_TYPES } from '../types.ts';

export const MAX_LEGS = 8;
export const MAX_EXTRA_KEYS = 32;
export const MAX_ID_LENGTH = 64;
export const MAX_TEXT_LENGTH = 256;

/** A charting platform's variable: TradingView's {{close}}, TrendSpider's %last_price%. */
export const PLACEHOLDER = /\{\{[^}]*\}\}|%[a-zA-Z_.]+%/;
/** A character outside printable ASCII, which every enumerated value is written in. */
const UNPRINTABLE = /[^\x20-\x7e]/u;

function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  notes: Readonly<Record<string, string>> = {},
) {
  const list = `must be one of ${values.join(', ')}`;
  // An unsubstituted charting variable deserves a plainer answer than the list of values.
  const message = (issue: { input?: unknown }): string => {
    if (typeof issue.input !== 'string') return list;
    const placeholder = PLACEHOLDER.exec(issue.input);
    if (placeholder) return `placeholder ${placeholder[0]} was not replaced by the sender`;
    const written = issue.input.trim().toLowerCase();
    if (Object.hasOwn(notes, written)) return `${list}; ${written} ${notes[written]}`;
    // "buy" with a zero-width space, or a Cyrillic т in "gtc", looks like a value of the list.
    const odd = UNPRINTABLE.exec(issue.input)?.[0];
    return odd ? `${list}; the value holds ${quoteCharacter(odd)}` : list;
  };
  return z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, { error: message }));
}

/**
 * Positions sent as actions: TradingView's {{strategy.market_position}} (long, short, flat) is the
 * position after the order; an "exit" is a close.
 */
const POSITION =
  'names a position, not an order: send {{strategy.order.action}} (buy or sell), or buy to go long, sell or sell_short to go short, close to go flat';
const ACTION_NOTES = { long: POSITION, short: POSITION, flat: POSITION, exit: 'is close here: it closes the position' };

/** A number, or text holding a number or a math expression. */
const numeric = z.custom<number | string>((value) => typeof value === 'number' || typeof value === 'string', {
  error: 'must be a number or a math expression',
});

/** Text a sender may also write as a number (a client id of 42, a ticker of 7203). */
const text = (max: number) =>
  z
    .union([z.string(), z.number()], { error: 'must be text' })
    .transform((value) => String(value).trim())
    .pipe(
      z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(max, { error: `longer than ${max} characters` }),
    );

/**
 * A symbol, kept as written (`blank` lets the caller refuse a blank one): parseSymbol trims it itself, so that the position in a refusal
 * (`symbol: unexpected "​" (U+200B) at position 6`) counts from the value's first character, as
 * an expression's does.
 */
const symbolText = ({ blank = false } = {}) =>
  z
    .union([z.string(), z.number()], { error: 'must be text' })
    .transform((value) => String(value))
    .pipe(
      z
        .string()
        .refine((value) => blank || value.trim() !== '', { error: 'must not be empty' })
        .refine((value) => value.trim().length <= MAX_TEXT_LENGTH, {
          error: `longer than ${MAX_TEXT_LENGTH} characters`,
        }),
    );

/**
 * An order's id (client_id, parent_id), text or a number, but no integer past 2^53: JSON.parse
 * has already rounded it, and client ids 1700000000000000001 and …002 would be one (the second
 * a "repeat", never placed). Nor an unsubstituted variable: "{{strategy.order.id}}" would be the
 * same id in every signal, and each after the first a repeat.
 */
const id = () =>
  z
    .union(
      [
        z.string(),
        z.number().refine((value) => !Number.isInteger(value) || Number.isSafeInteger(value), {
          error: 'a number this long loses digits; send it as text in quotes',
        }),
      ],
      { error: 'must be text' },
    )
    .pipe(text(MAX_ID_LENGTH))
    .superRefine(replaced);

/** An extra value goes to the broker as written: an unsubstituted "{{close}}" is no value of it. */
const scalar = z
  .union([z.string().max(MAX_TEXT_LENGTH), z.number(), z.boolean()], {
    error: `must be text (at most ${MAX_TEXT_LENGTH} characters), a number or true/false`,
  })
  .superRefine((value, context) => {
    if (typeof value === 'string') replaced(value, context);
  });

/** Refuses text still holding a charting platform's variable, which the sender did not substitute. */
function replaced(value: string, context: z.RefinementCtx): void {
  const placeholder = PLACEHOLDER.exec(value);
  if (placeholder) {
    context.addIssue({ code: 'custom', message: `placeholder ${placeholder[0]} was not replaced by the sender` });
  }
}

const legShape = {
  symbol: symbolText().optional(),
  class: oneOf(ORDER_CLASSES).optional(),
  action: oneOf(ORDER_ACTIONS, ACTION_NOTES).optional(),
  quantity: numeric.optional(),
  type: oneOf(ORDER_TYPES).optional(),
  limit_price: numeric.optional(),
};
export const rawLegSchema = z.strictObject(legShape, {
  // Only a leg that is no object at all: unknown keys have their own issue (schema-issues.ts).
  error: `must be an object of leg fields (${Object.keys(legShape).join(', ')})`,
});
export type RawLeg = z.infer<typeof rawLegSchema>;
/** Fields a leg may carry, as `symbol[2]` or inside `legs: [{...}]`. */
export const LEG_FIELDS = Object.keys(rawLegSchema.shape) as Array<keyof RawLeg>;

export const rawOrderSchema = z.strictObject({
  // A blank one is refused as a missing one is, with SPEC §8's sample message (build-order.ts).
  symbol: symbolText({ blank: true }).optional(),
  action: oneOf(ORDER_ACTIONS, ACTION_NOTES).optional(),
  quantity: numeric.optional(),
  quantity_type: oneOf(QUANTITY_TYPES).optional(),
  type: oneOf(ORDER_TYPES).optional(),
  limit_price: numeric.optional(),
  stop_price: numeric.optional(),
  stop_price_distance: numeric.optional(),
  stop_price_percent: numeric.optional(),
  take_profit_price: numeric.optional(),
  stop_loss_price: numeric.optional(),
  stop_loss_price_distance: numeric.optional(),
  stop_loss_price_percent: numeric.optional(),
  duration: oneOf(DURATIONS).optional(),
  class: oneOf(ORDER_CLASSES).optional(),
  client_id: id().optional(),
  /** When the sender made the signal (TradingView's {{timenow}}): read by the webhook's
   * stale-signal guard (maxLagSeconds), accepted and unused otherwise. Never an unsubstituted
   * "{{timenow}}": the same text in every alert, it makes two like orders one body, and the
   * second a "repeat", never placed. */
  time: text(MAX_ID_LENGTH).superRefine(replaced).optional(),
  timestamp: text(MAX_ID_LENGTH).superRefine(replaced).optional(),
  parent_id: id().optional(),
  group: oneOf(ORDER_GROUPS).optional(),
  legs: z
    .array(rawLegSchema, { error: 'must be an array of legs' })
    .max(MAX_LEGS, { error: `at most ${MAX_LEGS} legs` })
    .optional(),
  extra: z
    .record(z.string().max(64, { error: 'key longer than 64 characters' }), scalar, {
      error: 'must be an object of text, number or true/false values',
    })
    .refine((value) => Object.keys(value).length <= MAX_EXTRA_KEYS, { error: `at most ${MAX_EXTRA_KEYS} keys` })
    .optional(),
});
export type RawOrder = z.infer<typeof rawOrderSchema>;
export const RAW_ORDER_FIELDS = Object.keys(rawOrderSchema.shape) as Array<keyof RawOrder>;

/** Bodies with more distinct field sets than this are checked by the whole schema. */
const MAX_FIELD_SETS = 64;
// One bit per field of the shape (fewer than 31).
if (RAW_ORDER_FIELDS.length > 30) throw new Error('raw order fields do not fit a bit set');
const FIELD_BIT = new Map(RAW_ORDER_FIELDS.map((field, i) => [field as string, 1 << i]));
const byFieldSet = new Map<number, typeof rawOrderSchema>();

/**
 * `rawOrderSchema.safeParse(body)`, checked by the schema of the fields the body has: zod runs
 * every field of a shape, absent ones too (an object and an array each), ~2 KB per signal for
 * the ~20 a body leaves out. Every field is optional and the object has no check of its own, so
 * the fields a body leaves out add neither a value nor an issue, and the issues of the picked
 * schema come in the shape's order: the result is the same. A body with a field the shape does
 * not know (refused as unrecognized) goes to the whole schema, as does any field set past
 * MAX_FIELD_SETS (senders use a few templates).
 */
export function parseRawOrder(body: Record<string, unknown>): ReturnType<typeof rawOrderSchema.safeParse> {
  let set = 0;
  for (const key of Object.keys(body)) {
    const bit = FIELD_BIT.get(key);
    if (bit === undefined) return rawOrderSchema.safeParse(body);
    set |= bit;
  }
  let schema = byFieldSet.get(set);
  if (!schema) {
    if (byFieldSet.size >= MAX_FIELD_SETS) return rawOrderSchema.safeParse(body);
    const mask: Partial<Record<keyof RawOrder, true>> = {};
    for (const field of RAW_ORDER_FIELDS) if ((set & (FIELD_BIT.get(field) ?? 0)) !== 0) mask[field] = true;
    // pick keeps the mask's order, the shape's here; its type is the narrower object's.
    schema = rawOrderSchema.pick(mask) as unknown as typeof rawOrderSchema;
    byFieldSet.set(set, schema);
  }
  return schema.safeParse(body);
}
