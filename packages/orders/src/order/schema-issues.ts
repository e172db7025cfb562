// Turns the first zod issue into an OrderValidationError that names the field as the sender
// wrote it. Unknown fields come first: a typo is the likeliest cause of every other complaint.
import type { z } from 'zod';
import { OrderValidationError } from '../errors.ts';
import type { LegFieldName } from './indexed-legs.ts';
import { LEG_FIELDS, RAW_ORDER_FIELDS } from './raw-schema.ts';

type Issue = z.core.$ZodIssue;

export function schemaIssueError(issues: readonly Issue[], legFieldName: LegFieldName): OrderValidationError {
  const issue = issues.find((item) => item.code === 'unrecognized_keys') ?? issues[0];
  if (!issue) return new OrderValidationError('body', 'body: invalid order');
  const inLeg = issue.path[0] === 'legs' && typeof issue.path[1] === 'number';
  if (issue.code === 'unrecognized_keys') {
    // An empty name is quoted, or the message would open with ": unknown field".
    const names = issue.keys
      .map((key) => (key === '' ? '""' : key))
      .map((key) => (inLeg ? legFieldName(Number(issue.path[1]), key) : fieldName(issue.path, key)));
    const known: readonly string[] = inLeg ? LEG_FIELDS : RAW_ORDER_FIELDS;
    const meant: string[] = [];
    const notes = new Set<string>();
    for (const key of issue.keys) {
      if (!inLeg && RELATIVE_TAKE_PROFIT.test(key.toLowerCase())) notes.add(TAKE_PROFIT_NOTE);
      else {
        const name = closest(key, known);
        if (name !== undefined) meant.push(name);
      }
    }
    const parts = [...(meant.length > 0 ? [`did you mean ${meant.join(', ')}?`] : []), ...notes];
    const hint = parts.length > 0 ? ` (${parts.join('; ')})` : '';
    const field = names[0] ?? 'body';
    return new OrderValidationError(field, `${names.join(', ')}: unknown field${names.length > 1 ? 's' : ''}${hint}`);
  }
  const field =
    inLeg && typeof issue.path[2] === 'string'
      ? legFieldName(Number(issue.path[1]), issue.path[2])
      : fieldName(issue.path.slice(0, -1), issue.path.at(-1));
  return new OrderValidationError(field, `${field}: ${issue.message}`);
}

function fieldName(path: readonly PropertyKey[], last: PropertyKey | undefined): string {
  const parts = last === undefined ? [...path] : [...path, last];
  if (parts.length === 0) return 'body';
  return parts
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`))
    .join('');
}

/**
 * A take profit as a distance or percent, as stop losses may be given: there is no such field, and
 * pointed at take_profit_price alone, a sender's 2 (meaning 2 %) became a take profit at 2.
 */
const RELATIVE_TAKE_PROFIT = /^(?:take_?profit|tp)(?:_price)?_(?:percent|pct|distance|offset|points|ticks)$/;
const TAKE_PROFIT_NOTE =
  'take_profit_price takes a price, not a distance or percent: "{{close}} * 1.02" is 2 % over the close, "{{close}} + 5" 5 over it';

/**
 * What other products (and their users) call our fields: near in meaning, not in spelling, so the
 * edit distance alone hints wrong ("side" is no misspelt "time", nor "tp" a "type").
 */
const ALIASES: Readonly<Record<string, string>> = {
  side: 'action',
  direction: 'action',
  ticker: 'symbol',
  instrument: 'symbol',
  qty: 'quantity',
  size: 'quantity',
  amount: 'quantity',
  contracts: 'quantity',
  price: 'limit_price',
  tp: 'take_profit_price',
  take_profit: 'take_profit_price',
  sl: 'stop_loss_price',
  stop_loss: 'stop_loss_price',
  order_type: 'type',
  ordertype: 'type',
  tif: 'duration',
  time_in_force: 'duration',
  timeinforce: 'duration',
};

/** The known name meant by another product's (side → action), else within two edits of a mistyped one (stop_los_price → stop_loss_price). */
function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  // Symbol[2]: the indexed leg field as it is spelt (a top-level name only: legs have no indexes).
  const indexed = /^([a-z_]+)\[\d{1,3}\]$/.exec(lower);
  if (indexed)
    return (LEG_FIELDS as readonly string[]).includes(indexed[1] ?? '') && known === RAW_ORDER_FIELDS
      ? lower
      : undefined;
  const alias = Object.hasOwn(ALIASES, lower) ? ALIASES[lower] : undefined;
  if (alias !== undefined) return known.includes(alias) ? alias : undefined;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit || a.length > 64) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? limit;
}
