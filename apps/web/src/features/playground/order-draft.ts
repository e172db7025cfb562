// The playground's order text and the SPEC §4 rules on it. The text area is the source of
// truth; the selectors read the order parsed from it and write it back through the rules of
// @router/orders (applyAction, applyType, applyClass, applySymbol).
import {
  applyAction,
  applyClass,
  applySymbol,
  applyType,
  defaultType,
  isExitAction,
  ORDER_ACTIONS,
  ORDER_CLASSES,
  ORDER_PARAMETERS,
  ORDER_TYPES,
  type OrderAction,
  type OrderClass,
  type OrderDraft,
  type OrderType,
  type Provider,
  parseOrderText,
  parseSymbol,
  playgroundChoices,
  providerTypes,
} from '@router/orders';

export const formatDraft = (draft: OrderDraft): string => JSON.stringify(draft, null, 2);

/** The order in the text, when it reads as an object (leniently); else why it does not. */
export function readDraftOrProblem(text: string): { draft: OrderDraft } | { problem: string } {
  const result = parseOrderText(text);
  if (!result.ok) return { problem: `its text is not valid JSON (${result.error})` };
  if (typeof result.value !== 'object' || result.value === null || Array.isArray(result.value)) {
    return { problem: 'its text is not a JSON object' };
  }
  return { draft: result.value as OrderDraft };
}

/** The order in the text, when it reads as an object (leniently); else undefined. */
export function readDraft(text: string): OrderDraft | undefined {
  const read = readDraftOrProblem(text);
  return 'draft' in read ? read.draft : undefined;
}

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

const STOP_FIELDS = ['stop_price', 'stop_price_distance', 'stop_price_percent'];

export interface DraftSelection {
  class: OrderClass;
  type: OrderType;
  action: OrderAction | '';
}

/**
 * What the selectors show for a draft, as the hook reads it: its class, else its symbol's (BTCUSD is
 * crypto), else the provider's first; its type, else the one its prices make (a limit_price makes a
 * limit order, SPEC §5); and its action.
 */
export function draftSelection(draft: OrderDraft, provider: Provider): DraftSelection {
  const { classes } = playgroundChoices(provider);
  const orderClass = isOneOf(ORDER_CLASSES, draft.class) ? draft.class : (symbolClass(draft) ?? classes[0] ?? 'stock');
  const given = (field: string) => draft[field] !== undefined && draft[field] !== null;
  return {
    class: orderClass,
    type: isOneOf(ORDER_TYPES, draft.type) ? draft.type : defaultType(given('limit_price'), STOP_FIELDS.some(given)),
    action: isOneOf(ORDER_ACTIONS, draft.action) ? draft.action : '',
  };
}

/** The class of the draft's symbol when it has a recognizable one (an option, a future, a pair). */
function symbolClass(draft: OrderDraft): OrderClass | undefined {
  if (typeof draft.symbol !== 'string') return undefined;
  try {
    const parsed = parseSymbol(draft.symbol);
    return parsed.recognized ? parsed.class : undefined;
  } catch {
    return undefined; // Half-typed while editing: the Test button reports it.
  }
}

/** A value from the parameters table or the query string put into the order, by the rules. */
export function applyValue(draft: OrderDraft, parameter: string, value: unknown, provider: Provider): OrderDraft {
  if (parameter === 'class' && isOneOf(ORDER_CLASSES, value)) return applyClass(draft, value, provider);
  if (parameter === 'symbol' && typeof value === 'string') return applySymbol(draft, value, undefined, provider);
  if (parameter === 'type' && isOneOf(ORDER_TYPES, value)) return applyType(draft, value, provider);
  if (parameter === 'action' && isOneOf(ORDER_ACTIONS, value)) return applyAction(draft, value, provider);
  return { ...draft, [parameter]: value };
}

const STOP_LOSS_FIELDS = ['stop_loss_price', 'stop_loss_price_distance', 'stop_loss_price_percent'];
const TYPES_USING: Record<'limit' | 'stop', readonly OrderType[]> = {
  limit: ['limit', 'stop_limit'],
  stop: ['stop', 'stop_limit'],
};

/**
 * The type an order needs for a limit or stop price put into it, when its own does not use one
 * (SPEC §5: limit_price applies to limit orders only): a market order becomes a limit or stop
 * order, a stop or limit order a stop_limit one, as far as the broker offers them. Undefined when
 * nothing is to change, or the order gives no type and is no close or cancel (its prices make it).
 */
function typeForPrice(draft: OrderDraft, kind: 'limit' | 'stop', provider: Provider): OrderType | undefined {
  const closing = isOneOf(ORDER_ACTIONS, draft.action) && isExitAction(draft.action);
  const current = isOneOf(ORDER_TYPES, draft.type) ? draft.type : closing ? 'market' : undefined;
  if (current === undefined) return undefined;
  const uses = TYPES_USING[kind];
  // Close and cancel take no price: choosing the type turns the action to buy (SPEC §4).
  if (uses.includes(current)) return closing ? current : undefined;
  const offered = providerTypes(provider.reference, isOneOf(ORDER_CLASSES, draft.class) ? draft.class : undefined);
  const preferred: OrderType = current === 'market' ? kind : 'stop_limit';
  return offered.includes(preferred) ? preferred : uses.find((type) => offered.includes(type));
}

/** The class the provider lists a symbol example as, when `value` is one of its examples. */
function symbolExampleClass(provider: Provider, value: unknown): OrderClass | undefined {
  const symbol = provider.reference.symbol;
  const index = symbol?.examples?.findIndex((example) => String(example) === value) ?? -1;
  const orderClass = index >= 0 ? symbol?.examplesClass?.[index] : undefined;
  return isOneOf(ORDER_CLASSES, orderClass) ? orderClass : undefined;
}

/**
 * What a close or cancel refuses besides prices: a bracket's exit and a duration, and on a cancel a
 * quantity or its quantity_type ('quantity_type: not used with action cancel').
 */
function refusedOnExit(draft: OrderDraft, parameter: string): boolean {
  if (parameter === 'take_profit_price' || STOP_LOSS_FIELDS.includes(parameter) || parameter === 'duration')
    return true;
  return draft.action === 'cancel' && (parameter === 'quantity' || parameter === 'quantity_type');
}

/**
 * A value clicked in the parameters table, by the rules: a limit or stop price also brings a type
 * that uses it (a market order given a limit_price would be refused), and a stop or stop loss
 * replaces the other ways of giving it (only one of stop_price, stop_price_distance, stop_price_percent).
 * A bracket's exit or a duration on a close or cancel, which take none (nor a cancel a quantity or
 * quantity_type), makes it an order to buy as a type would.
 */
export function pickValue(draft: OrderDraft, parameter: string, value: unknown, provider: Provider): OrderDraft {
  // A symbol example is of the class the broker lists it as (IBKR's 912828YK0 a bond, US500 a CFD),
  // which its spelling alone does not say: the order takes that class, as choosing it would.
  // (Where the broker takes a class at all: one without it refuses the field.)
  const exampleClass =
    parameter === 'symbol' && provider.reference.class ? symbolExampleClass(provider, value) : undefined;
  if (exampleClass) return { ...applyClass(draft, exampleClass, provider), symbol: value };
  const kind = parameter === 'limit_price' ? 'limit' : STOP_FIELDS.includes(parameter) ? 'stop' : undefined;
  const closing = isOneOf(ORDER_ACTIONS, draft.action) && isExitAction(draft.action);
  const type = kind
    ? typeForPrice(draft, kind, provider)
    : closing && refusedOnExit(draft, parameter)
      ? 'market'
      : undefined;
  const next: OrderDraft = type ? applyType(draft, type, provider) : { ...draft };
  for (const fields of [STOP_FIELDS, STOP_LOSS_FIELDS]) {
    if (fields.includes(parameter)) for (const field of fields) delete next[field];
  }
  return applyValue(next, parameter, value, provider);
}

const INDEXED = /^([a-z_]+)\[[1-8]\]$/;
const isOrderField = (name: string): boolean => {
  const base = INDEXED.exec(name)?.[1] ?? name;
  return (ORDER_PARAMETERS as readonly string[]).includes(base);
};

/** Text from a URL or an example: numbers as numbers, JSON objects and arrays as such. */
export function typedValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed !== '' && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (/^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text; // Not JSON after all: kept as typed.
    }
  }
  return text;
}

// Class first (it resets the symbol), then symbol, type and action, then the rest as given.
const PREFILL_ORDER = ['class', 'symbol', 'type', 'action'];

/** Parameters that are text even when they look like a number: tickers such as 0700, order ids such as 007. */
const TEXT_PARAMETERS = new Set(['symbol', 'client_id', 'parent_id']);
const isTextParameter = (name: string): boolean => TEXT_PARAMETERS.has(INDEXED.exec(name)?.[1] ?? name);

/** ?symbol=MSFT&action=sell&quantity=3 over the sample order; unknown parameters are ignored. */
export function prefillDraft(draft: OrderDraft, search: URLSearchParams, provider: Provider): OrderDraft {
  const entries = [...search.entries()].filter(([name]) => isOrderField(name));
  const rank = (name: string) => {
    const index = PREFILL_ORDER.indexOf(name);
    return index < 0 ? PREFILL_ORDER.length : index;
  };
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return entries.reduce(
    (next, [name, value]) => applyValue(next, name, isTextParameter(name) ? value : typedValue(value), provider),
    draft,
  );
}
