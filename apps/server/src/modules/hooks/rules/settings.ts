// A webhook's risk controls as the user writes them (docs/RISK-CONTROLS.md): one JSON object,
// validated whole. Anything wrong refuses the whole object with `key: reason`, so a half-applied
// setting can never let through what the user meant to stop.
import { BlockList, isIP } from 'node:net';
import { duplicateKey } from '@router/orders';
import { PLATFORMS } from '@router/shared';
import { z } from 'zod';

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The presets of `sourceAddresses`: the platforms' published addresses (@router/shared). */
export const SOURCE_PRESETS = {
  tradingview: PLATFORMS.tradingview.addresses,
  trendspider: PLATFORMS.trendspider.addresses,
} as const satisfies Record<string, readonly string[]>;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_LIST = 500;
const MAX_PER_MINUTE = 1_000;
/**
 * Counted in an int column (hook_order_counts): past 2^31 every signal's count failed (503).
 * Checked when saved, not by the schema, which reads the settings stored before too.
 */
const MAX_PER_DAY = 1_000_000;
/**
 * The most the other numbers may be, checked when saved as MAX_PER_DAY is: past them a setting is
 * a slip, not a choice (a fanOut multiplier of 1e300 sent orders of 1e300 shares, or of Infinity).
 */
const MAX_LAG_S = 86_400;
export const MAX_MULTIPLIER = 1_000;
const MAX_SIZE = 1e12;

const positive = z.number({ error: 'must be a number' }).positive({ error: 'must be greater than 0' });
const count = z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(1, {
  error: 'must be at least 1',
});
const symbol = z
  .string({ error: 'must be text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'longer than 64 characters' });

const windowSchema = z.strictObject({
  days: z
    .array(z.enum(WEEKDAYS, { error: `must be among ${WEEKDAYS.join(', ')}` }), { error: 'must be a list of days' })
    .min(1, { error: 'must name at least one day' }),
  from: z.string({ error: 'must be HH:MM' }).regex(HH_MM, { error: 'must be HH:MM (00:00 to 23:59)' }),
  // 24:00 ends a window at midnight (a whole day is 00:00–24:00).
  to: z
    .string({ error: 'must be HH:MM' })
    .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: 'must be HH:MM (00:01 to 24:00)' }),
  timeZone: z.string({ error: 'must be a time zone such as America/New_York' }),
});

const fanOutSchema = z.strictObject({
  connectorKey: z.string({ error: 'must be text' }).min(1, { error: 'must not be empty' }),
  accountId: z.string({ error: 'must be text' }).min(1, { error: 'must not be empty' }),
  multiplier: positive,
});

export const hookRulesSchema = z.strictObject({
  maxLagSeconds: positive.optional(),
  sourceAddresses: z
    .array(z.string({ error: 'must be text' }).trim())
    .max(MAX_LIST)
    .optional(),
  symbols: z.array(symbol).max(MAX_LIST).optional(),
  symbolMap: z.record(symbol, symbol, { error: 'must be an object of symbol to symbol' }).optional(),
  maxQuantity: positive.optional(),
  maxNotional: positive.optional(),
  // Absolute position per symbol after the order; only where the broker reports positions.
  maxPosition: positive.optional(),
  // The last minute's instants are kept in one row (hook_order_counts.recent): bounded.
  maxOrdersPerMinute: count.max(MAX_PER_MINUTE, { error: `at most ${MAX_PER_MINUTE}` }).optional(),
  maxOrdersPerDay: count.optional(),
  // The zone and the time of day (its midnight when left out) that start maxOrdersPerDay's day:
  // UTC's midnight when both are left out, as before they existed.
  dayTimeZone: z.string({ error: 'must be a time zone such as America/New_York' }).optional(),
  dayStartsAt: z
    .string({ error: 'must be HH:MM' })
    .regex(HH_MM, { error: 'must be HH:MM (00:00 to 23:59)' })
    .optional(),
  tradingWindows: z.array(windowSchema).max(50).optional(),
  outsideWindow: z.enum(['refuse', 'queue'], { error: 'must be refuse or queue' }).optional(),
  fanOut: z.array(fanOutSchema).max(10).optional(),
});
export type HookRules = z.infer<typeof hookRulesSchema>;
export type TradingWindow = z.infer<typeof windowSchema>;
export type FanOutLeg = z.infer<typeof fanOutSchema>;

export type RulesResult = { ok: true; rules: HookRules | null } | { ok: false; message: string };

const fail = (message: string): RulesResult => ({ ok: false, message });

/**
 * The settings from their JSON text: `null`, `{}` or blank mean none. Checks what the schema
 * cannot: addresses and CIDRs parse, windows end after they start in a real time zone, the
 * symbol map has no chains or loops.
 */
export function parseHookRules(text: string): RulesResult {
  if (text.trim() === '') return { ok: true, rules: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('rules: not valid JSON');
  }
  if (value === null) return { ok: true, rules: null };
  // JSON.parse keeps the last of a key given twice: `"maxQuantity": 5, …, "maxQuantity": 500`
  // would save 500 without a word.
  const twice = duplicateKey(text);
  if (twice !== undefined) return fail(`${twice}: given twice`);
  if (hasProtoMapKey(value)) return fail('symbolMap.__proto__: cannot be mapped (a reserved name)');
  const clash = mapKeyClash(value);
  if (clash) return fail(clash);
  const parsed = hookRulesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? formatPath(issue.path) : '';
    if (issue?.code === 'unrecognized_keys') return fail(`${issue.keys[0] ?? path}: unknown setting`);
    return fail(`${path || 'rules'}: ${issue?.message ?? 'invalid'}`);
  }
  const rules = parsed.data;
  const problem =
    boundsProblem(rules) ??
    emptyListProblem(rules) ??
    addressProblem(rules) ??
    windowProblem(rules) ??
    dayZoneProblem(rules) ??
    mapProblem(rules) ??
    fanOutProblem(rules);
  if (problem) return fail(problem);
  return { ok: true, rules: Object.keys(rules).length === 0 ? null : rules };
}

/**
 * A symbolMap key `__proto__` (as JSON.parse makes it: an own key) is one no object can hold: the
 * schema's record would drop it without a word, and the mapping the user wrote would do nothing.
 */
function hasProtoMapKey(value: unknown): boolean {
  const map = typeof value === 'object' && value !== null ? (value as { symbolMap?: unknown }).symbolMap : undefined;
  return typeof map === 'object' && map !== null && Object.keys(map).some((key) => key.trim() === '__proto__');
}

/**
 * Two symbolMap keys that are one symbol once trimmed and upper-cased (`BTCUSD` and `btcusd `),
 * mapped to different targets: symbols are matched whatever their case (compile.ts), so one of
 * the two mappings would be lost without a word.
 */
function mapKeyClash(value: unknown): string | undefined {
  const map = typeof value === 'object' && value !== null ? (value as { symbolMap?: unknown }).symbolMap : undefined;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const same = (a: unknown, b: unknown) =>
    typeof a === 'string' && typeof b === 'string' ? a.trim() === b.trim() : a === b;
  const seen = new Map<string, [key: string, target: unknown]>();
  for (const [key, target] of Object.entries(map)) {
    const symbol = key.trim().toUpperCase();
    const first = seen.get(symbol);
    if (first && !same(first[1], target)) {
      return `symbolMap.${key.trim()}: the same symbol as ${first[0].trim()} (keys match whatever their case and spaces), mapped otherwise; keep one`;
    }
    seen.set(symbol, [key, target]);
  }
  return undefined;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );
}

function boundsProblem(rules: HookRules): string | undefined {
  const bounds: [key: string, value: number | undefined, max: number][] = [
    ['maxOrdersPerDay', rules.maxOrdersPerDay, MAX_PER_DAY],
    ['maxLagSeconds', rules.maxLagSeconds, MAX_LAG_S],
    ['maxQuantity', rules.maxQuantity, MAX_SIZE],
    ['maxNotional', rules.maxNotional, MAX_SIZE],
    ['maxPosition', rules.maxPosition, MAX_SIZE],
    ...(rules.fanOut ?? []).map((leg, i): [string, number, number] => [
      `fanOut[${i}].multiplier`,
      leg.multiplier,
      MAX_MULTIPLIER,
    ]),
  ];
  const over = bounds.find(([, value, max]) => value !== undefined && value > max);
  return over && `${over[0]}: at most ${over[2]}`;
}

/**
 * An empty allowlist: a trader writing `"symbols": []` means "allow none", but a list with nothing
 * in it is no control at all (every symbol, address or hour would pass). Refused when saved, with
 * what to write instead; settings stored before are read as they were.
 */
function emptyListProblem(rules: HookRules): string | undefined {
  const empty = (['symbols', 'sourceAddresses', 'tradingWindows'] as const).find((key) => rules[key]?.length === 0);
  if (empty === undefined) return undefined;
  return `${empty}: an empty list would allow everything; leave ${empty} out for no such control, or pause the webhooks to take nothing`;
}

/** A preset's own name: not one every object has ('toString', 'constructor'). */
export const isSourcePreset = (entry: string): entry is keyof typeof SOURCE_PRESETS =>
  Object.hasOwn(SOURCE_PRESETS, entry);

function addressProblem(rules: HookRules): string | undefined {
  const probe = new BlockList();
  for (const [i, entry] of (rules.sourceAddresses ?? []).entries()) {
    if (isSourcePreset(entry)) continue;
    try {
      addSource(probe, entry);
    } catch {
      return `sourceAddresses[${i}]: not an address, a CIDR or a preset (tradingview, trendspider): ${entry}`;
    }
  }
  return undefined;
}

/** Adds an address or CIDR to a list; throws when it does not parse. */
export function addSource(list: BlockList, entry: string): void {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) throw new Error('not an address');
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) {
    list.addAddress(address, type);
    return;
  }
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
  if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) throw new Error('bad prefix');
  list.addSubnet(address, prefix, type);
}

/**
 * The zones named without a region that mean what they say. Any other name without a `/` is an
 * abbreviation the engine reads as some region of its own choosing: EST as America/Panama (no
 * daylight saving time: New York's 09:30 falls an hour off all summer), BST as Asia/Dhaka, IST as
 * Asia/Calcutta, CST as America/Chicago (not China).
 */
const UNIVERSAL: ReadonlySet<string> = new Set(['UTC', 'GMT']);

function windowProblem(rules: HookRules): string | undefined {
  for (const [i, w] of (rules.tradingWindows ?? []).entries()) {
    if (w.from >= w.to) return `tradingWindows[${i}]: ends (${w.to}) before it starts (${w.from})`;
    const problem = zoneProblem(`tradingWindows[${i}].timeZone`, w.timeZone);
    if (problem) return problem;
  }
  if (rules.outsideWindow && !rules.tradingWindows?.length) return 'outsideWindow: needs tradingWindows';
  return undefined;
}

function dayZoneProblem(rules: HookRules): string | undefined {
  const lone = (['dayTimeZone', 'dayStartsAt'] as const).find((key) => rules[key] !== undefined);
  if (lone && rules.maxOrdersPerDay === undefined) return `${lone}: needs maxOrdersPerDay`;
  return rules.dayTimeZone === undefined ? undefined : zoneProblem('dayTimeZone', rules.dayTimeZone);
}

/** An IANA zone named by its region, UTC or GMT; `key: reason` otherwise. */
function zoneProblem(key: string, name: string): string | undefined {
  let zone: string;
  try {
    zone = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return `${key}: unknown time zone: ${name}`;
  }
  if (!name.includes('/') && !UNIVERSAL.has(name.toUpperCase())) {
    return `${key}: ${name} is an abbreviation, which is read here as ${zone} (EST keeps no daylight saving time, BST is Dhaka's); name the region, such as America/New_York or Europe/London`;
  }
  return undefined;
}

function mapProblem(rules: HookRules): string | undefined {
  const map = rules.symbolMap ?? {};
  // Keys match whatever their case and spaces (compile.ts), so a target does too: `nq` is mapped
  // by the key NQ. A Map, not the object: every object has `toString` and `constructor`.
  const plain = (symbol: string) => symbol.trim().toUpperCase();
  const keys = new Map(Object.entries(map).map(([from, to]) => [plain(from), to] as const));
  for (const [from, to] of Object.entries(map)) {
    // Mapped once, never again: a target that is itself mapped (to another symbol) is a chain or a loop.
    const next = keys.get(plain(to));
    if (plain(from) !== plain(to) && next !== undefined && plain(next) !== plain(to))
      return `symbolMap.${from}: ${to} is mapped again (a chain or a loop)`;
  }
  return undefined;
}

function fanOutProblem(rules: HookRules): string | undefined {
  const seen = new Set<string>();
  for (const [i, leg] of (rules.fanOut ?? []).entries()) {
    const id = `${leg.connectorKey}\u0000${leg.accountId}`;
    if (seen.has(id)) return `fanOut[${i}]: the same account twice`;
    seen.add(id);
  }
  return undefined;
}
