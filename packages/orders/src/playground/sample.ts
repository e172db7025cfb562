// The playground's sample order, drawn from the provider's reference (SPEC §2 "Documentation and
// playground"): the selectors offer the provider's classes, types and actions, and choosing them
// builds an order such as {"symbol": "AAPL", "action": "buy", "quantity": 1, "type": "limit", "limit_price": 150}.
import { actionsForClass, isExitAction, ORDER_CLASS_INFO, sortClasses } from '../enumerations.ts';
import { currentExample } from '../symbols/dated-examples.ts';
import {
  ORDER_ACTIONS,
  ORDER_CLASSES,
  ORDER_TYPES,
  type OrderAction,
  type OrderClass,
  type OrderType,
  type Provider,
  type ProviderReference,
} from '../types.ts';

/** An order as the playground edits it: JSON values, possibly incomplete or mistyped. */
export type OrderDraft = Record<string, unknown>;

const FALLBACK_PRICES = { limit_price: 150, stop_price: 145 } as const;

export interface PlaygroundChoices {
  classes: OrderClass[];
  types: OrderType[];
  actions: OrderAction[];
}

/** The selectors' options for a provider and the chosen class (default: the provider's first). */
export function playgroundChoices(provider: Provider, orderClass?: OrderClass): PlaygroundChoices {
  const classes = providerClasses(provider.reference);
  const chosen = orderClass ?? classes[0] ?? 'stock';
  return {
    classes,
    types: providerTypes(provider.reference, chosen),
    actions: providerActions(provider.reference, chosen),
  };
}

export function providerClasses(reference: ProviderReference): OrderClass[] {
  const declared = reference.class?.values ?? reference.symbol?.examplesClass ?? ['stock'];
  const known = declared.filter((value): value is OrderClass => (ORDER_CLASSES as readonly string[]).includes(value));
  return sortClasses([...new Set(known)]);
}

/** The types the provider takes, of a class when given (`byClass`: Webull's crypto takes no stop). */
export function providerTypes(reference: ProviderReference, orderClass?: OrderClass): OrderType[] {
  const forClass = orderClass === undefined ? undefined : reference.type?.byClass?.[orderClass];
  const declared = forClass ?? reference.type?.values;
  if (declared && declared.length > 0) return ORDER_TYPES.filter((type) => declared.includes(type));
  // No list: market, plus whatever the supported price fields make possible.
  return ORDER_TYPES.filter(
    (type) =>
      type === 'market' ||
      (type === 'limit' && reference.limit_price) ||
      (type === 'stop' && reference.stop_price) ||
      (type === 'stop_limit' && reference.limit_price && reference.stop_price),
  );
}

export function providerActions(reference: ProviderReference, orderClass: OrderClass): OrderAction[] {
  const declared = reference.action?.byClass?.[orderClass] ?? reference.action?.values;
  const forClass = actionsForClass(orderClass);
  return ORDER_ACTIONS.filter((action) => forClass.includes(action) && (!declared || declared.includes(action)));
}

/**
 * The symbol shown for a class: the provider's first example of that class, else a generic one;
 * a dated one (an option, a contract month) moved to a date that is current at `now`.
 */
export function classExampleSymbol(orderClass: OrderClass, provider?: Provider, now = Date.now()): string {
  const symbol = provider?.reference.symbol;
  const index = symbol?.examplesClass?.indexOf(orderClass) ?? -1;
  const example = index >= 0 ? symbol?.examples?.[index] : undefined;
  return String(currentExample(example ?? ORDER_CLASS_INFO[orderClass].examples[0] ?? 'AAPL', now));
}

/** The quantity example orders use: 1, or the broker's smallest amount where 1 is below it. */
export function exampleQuantity(provider?: Provider): number {
  return Math.max(1, provider?.reference.quantity?.minimum ?? 1);
}

/** SPEC §2 default example payload: quantity 1, action buy, the provider's first symbol example. */
export function defaultExamplePayload(provider?: Provider): OrderDraft {
  const symbol = provider?.reference.symbol;
  const example = symbol?.examples?.[0];
  // buy is no option action: an options-first provider gets buy_to_open.
  const action = firstActionFor(symbol?.examplesClass?.[0] ?? 'stock');
  return { symbol: example !== undefined ? String(example) : 'AAPL', action, quantity: exampleQuantity(provider) };
}

/** A price the provider documents for a field, else a round illustrative one. */
export function examplePrice(field: keyof typeof FALLBACK_PRICES, provider?: Provider): number | string {
  return provider?.reference[field]?.examples?.[0] ?? FALLBACK_PRICES[field];
}

/**
 * A stop_limit's example prices with the limit at or beyond the stop on the order's side, as a
 * stop limit is meant (and cTrader requires): a buy's limit at or over its stop, a sell's at or under.
 * The provider's examples are two prices written apart (cTrader's limit 2650.5, stop 2700).
 */
export function stopLimitExamples(
  action: unknown,
  provider?: Provider,
): { limit_price: number | string; stop_price: number | string } {
  const limit = examplePrice('limit_price', provider);
  const stop = examplePrice('stop_price', provider);
  const buying = typeof action === 'string' && action.startsWith('buy');
  const wrongSide = typeof limit === 'number' && typeof stop === 'number' && (buying ? limit < stop : limit > stop);
  return wrongSide ? { limit_price: stop, stop_price: limit } : { limit_price: limit, stop_price: stop };
}

/** A valid first action for a class: buy, or buy_to_open for options. */
export function firstActionFor(orderClass: OrderClass): OrderAction {
  return orderClass === 'option' ? 'buy_to_open' : 'buy';
}

export interface SampleSelection {
  provider?: Provider;
  class?: OrderClass;
  type?: OrderType;
  action?: OrderAction;
}

/**
 * The sample order for the selectors: type limit adds limit_price, stop adds stop_price, and so on.
 * A dated example symbol is dated as of `now`.
 */
export function buildSampleOrder(selection: SampleSelection, now = Date.now()): OrderDraft {
  const { provider } = selection;
  const classes = provider ? providerClasses(provider.reference) : ['stock' as const];
  const orderClass = selection.class ?? classes[0] ?? 'stock';
  let action = selection.action ?? firstActionFor(orderClass);
  if (!actionsForClass(orderClass).includes(action)) action = firstActionFor(orderClass);
  // Close and cancel force a market order (SPEC §4 playground rules).
  const type: OrderType = isExitAction(action) ? 'market' : (selection.type ?? 'market');
  const draft: OrderDraft = { symbol: classExampleSymbol(orderClass, provider, now), action };
  // A close without a quantity closes the whole position (and a cancel takes none).
  if (!isExitAction(action)) draft.quantity = exampleQuantity(provider);
  if (classes.length > 1) draft.class = orderClass;
  if (type !== 'market' || provider?.reference.type) draft.type = type;
  if (type === 'limit') draft.limit_price = examplePrice('limit_price', provider);
  if (type === 'stop') draft.stop_price = examplePrice('stop_price', provider);
  if (type === 'stop_limit') Object.assign(draft, stopLimitExamples(action, provider));
  return draft;
}
