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
      const flatExtra = inLeg ? undefined : FLAT_EXTRA.exec(key)?.[1];
      if (flatExtra !== undefined) notes.add(`an extra value is written inside extra: "extra": {"${flatExtra}": …}`);
      else if (!inLeg && RELATIVE_TAKE_PROFIT.test(snakeCase(key))) notes.add(TAKE_PROFIT_NOTE);
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
 * `"extra.expiration": "…"`: an extra value as the docs and refusals name it (extra.expiration),
 * or as Zapier sends a nested field without its Unflatten option (extra__expiration), as a key of its own.
 */
const FLAT_EXTRA = /^extra(?:\.|__)(.+)$/i;

/**
 * A take profit as a distance or percent, as stop losses may be given: there is no such field, and
 * pointed at take_profit_price alone, a sender's 2 (meaning 2 %) became a take profit at 2.
 */
const RELATIVE_TAKE_PROFIT = /^(?:take_?profit|tp)(?:_price)?_(?:percent|pct|distance|offset|points|ticks)$/;
const TAKE_PROFIT_NOTE =
  'take_profit_price takes a price, not a distance or percent: "{{close}} * 1.02" is 2 % over the close, "{{close}} + 5" 5 over it';

/**
 * What other products (and their users) call our fields: near in meaning, not in spelling, so the
 * edit distance alone hints wrong ("side" is no misspelt "time", "tp_price" no "stop_price", "lots"
 * no "legs"). Keyed by the name without case, underscores or a closing number ("Take_Profit1" is
 * takeprofit), and found with or without a closing "price" (tp_price is tp). Null: a name that is
 * no order field of any product, which no hint fits ("close", the bar's close, is no "class").
 */
const ALIASES: Readonly<Record<string, string | null>> = {
  side: 'action',
  direction: 'action',
  ticker: 'symbol',
  instrument: 'symbol',
  qty: 'quantity',
  size: 'quantity',
  amount: 'quantity',
  contracts: 'quantity',
  lots: 'quantity',
  lot: 'quantity',
  volume: 'quantity',
  units: 'quantity',
  shares: 'quantity',
  price: 'limit_price',
  tp: 'take_profit_price',
  takeprofit: 'take_profit_price',
  sl: 'stop_loss_price',
  stoploss: 'stop_loss_price',
  stoplosspercent: 'stop_loss_price_percent',
  stoplosspct: 'stop_loss_price_percent',
  slpercent: 'stop_loss_price_percent',
  slpct: 'stop_loss_price_percent',
  stoplossdistance: 'stop_loss_price_distance',
  sldistance: 'stop_loss_price_distance',
  stoppercent: 'stop_price_percent',
  stoppct: 'stop_price_percent',
  stopdistance: 'stop_price_distance',
  ordertype: 'type',
  tif: 'duration',
  timeinforce: 'duration',
  close: null,
  open: null,
  high: null,
  low: null,
};

/** takeProfit → take_profit: another product's camelCase name, as our fields are spelt. */
function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The field another product's name means (tp_price → take_profit_price), null for none, or undefined when no alias. */
function aliasOf(name: string): string | null | undefined {
  const compact = name
    .toLowerCase()
    .replace(/[_\s-]/g, '')
    .replace(/\d+$/, '');
  for (const key of [compact, compact.replace(/price$/, '')]) if (Object.hasOwn(ALIASES, key)) return ALIASES[key];
  return undefined;
}

/** The known name meant by another product's (side → action), else within two edits of a mistyped one (stop_los_price → stop_loss_price). */
function closest(name: string, known: readonly string[]): string | undefined {
  const lower = snakeCase(name);
  // Symbol[2]: the indexed leg field as it is spelt (a top-level name only: legs have no indexes).
  const indexed = /^([a-z_]+)\[\d{1,3}\]$/.exec(name.toLowerCase());
  if (indexed)
    return (LEG_FIELDS as readonly string[]).includes(indexed[1] ?? '') && known === RAW_ORDER_FIELDS
      ? name.toLowerCase()
      : undefined;
  const alias = aliasOf(name);
  if (alias !== undefined) return alias !== null && known.includes(alias) ? alias : undefined;
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
