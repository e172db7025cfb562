// The playground's editing rules (SPEC §4), as pure functions from one draft to the next:
// close or cancel forces a market order; choosing a type while closing or canceling turns the
// action to buy; choosing a class puts in its example symbol and a valid action; choosing a
// symbol of a recognizable class switches the class.
import { actionsForClass, isExitAction } from '../enumerations.ts';
import { parseSymbol } from '../symbols/parse-symbol.ts';
import {
  EXIT_FIELDS,
  ORDER_CLASSES,
  type OrderAction,
  type OrderClass,
  type OrderType,
  type Provider,
} from '../types.ts';
import {
  classExampleSymbol,
  examplePrice,
  exampleQuantity,
  firstActionFor,
  type OrderDraft,
  providerActions,
  providerTypes,
  stopLimitExamples,
} from './sample.ts';

const PRICE_FIELDS = ['limit_price', 'stop_price', 'stop_price_distance', 'stop_price_percent'] as const;
/** A leg's field given by index: symbol[2], action[2], quantity[3]. */
const INDEXED_FIELD = /^[a-z_]+\[\d{1,3}\]$/;
export function applyAction(draft: OrderDraft, action: OrderAction, provider?: Provider): OrderDraft {
  const next: OrderDraft = { ...draft, action };
  if (!isExitAction(action))
    return withSideOfStopLimit(wasExit(draft) ? withQuantity(next, provider) : next, draft, provider);
  // A bracket's exits: close and cancel take none (the hook refuses them), so choosing either drops them.
  for (const field of EXIT_FIELDS) delete next[field];
  // Nor a duration ('duration: not used with action close'); a cancel takes no quantity either.
  delete next.duration;
  if (action === 'cancel') delete next.quantity;
  // The sample's own quantity goes too: a close without one closes the whole position, at every
  // broker (MetaTrader takes a close's quantity only as a percent_of_position). A quantity written
  // or typed stays, as the part of the position to close.
  if (next.quantity === exampleQuantity(provider) && next.quantity_type === undefined) delete next.quantity;
  // Legs too ('legs: not used with action close'), as an array or as indexed fields such as
  // symbol[2]; leg 1's symbol stays the order's. With neither legs nor exits left, any group is
  // refused ('bracket needs take_profit_price or a stop loss', 'oco needs legs'), so it goes as well.
  const firstLeg = Array.isArray(next.legs) ? (next.legs[0] as OrderDraft | undefined) : undefined;
  const firstSymbol = next['symbol[1]'] ?? firstLeg?.symbol;
  if (next.symbol === undefined && firstSymbol !== undefined) next.symbol = firstSymbol;
  for (const field of Object.keys(next)) if (INDEXED_FIELD.test(field)) delete next[field];
  delete next.legs;
  delete next.group;
  // A quantity_type reads a quantity: without one (a cancel's, or legs' own gone with them) it is
  // refused ('quantity_type: given without quantity').
  if (next.quantity === undefined) delete next.quantity_type;
  return withType(next, 'market', provider);
}

export function applyType(draft: OrderDraft, type: OrderType, provider?: Provider): OrderDraft {
  const next = withType({ ...draft }, type, provider);
  if (wasExit(next)) return withQuantity({ ...next, action: firstActionFor(draftClass(next)) }, provider);
  return next;
}

const wasExit = (draft: OrderDraft): boolean =>
  typeof draft.action === 'string' && isExitAction(draft.action as OrderAction);

/**
 * A stop_limit still at the examples of the other side (a buy's limit over its stop) turned round
 * for this side, as choosing the type now would give (a sell's limit under its stop: cTrader refuses
 * it otherwise). Prices written by hand stay.
 */
function withSideOfStopLimit(next: OrderDraft, before: OrderDraft, provider?: Provider): OrderDraft {
  if (next.type !== 'stop_limit') return next;
  const was = stopLimitExamples(before.action, provider);
  if (next.limit_price !== was.limit_price || next.stop_price !== was.stop_price) return next;
  return { ...next, ...stopLimitExamples(next.action, provider) };
}

/** An order placed again after a close or cancel (which take no sample quantity) gets the sample's quantity back. */
function withQuantity(draft: OrderDraft, provider?: Provider): OrderDraft {
  const legs = draft.legs !== undefined || Object.keys(draft).some((field) => INDEXED_FIELD.test(field));
  return draft.quantity === undefined && !legs ? { ...draft, quantity: exampleQuantity(provider) } : draft;
}

export function applyClass(
  draft: OrderDraft,
  orderClass: OrderClass,
  provider?: Provider,
  now: () => number = Date.now,
): OrderDraft {
  const next: OrderDraft = { ...draft, symbol: classExampleSymbol(orderClass, provider, now()) };
  if ('class' in draft || orderClass !== 'stock') next.class = orderClass;
  return withValidAction(next, orderClass, provider);
}

export function applySymbol(draft: OrderDraft, symbol: string, now?: () => number, provider?: Provider): OrderDraft {
  const next: OrderDraft = { ...draft, symbol };
  let orderClass: OrderClass | undefined;
  try {
    const parsed = parseSymbol(symbol, now ? { now } : {});
    if (parsed.recognized) orderClass = parsed.class;
  } catch {
    return next; // Half-typed symbols are normal while editing; the Test button reports them.
  }
  if (!orderClass || orderClass === draftClass(draft)) return next;
  return withValidAction({ ...next, class: orderClass }, orderClass, provider);
}

/** A result object for display: fields beginning with an underscore, and nulls, dropped at any depth. */
export function cleanResult(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(cleanResult);
  if (typeof value !== 'object' || value === null) return value;
  const clean: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!key.startsWith('_') && item !== null) clean[key] = cleanResult(item);
  }
  return clean;
}

function withType(draft: OrderDraft, type: OrderType, provider?: Provider): OrderDraft {
  const next: OrderDraft = { ...draft, type };
  for (const field of PRICE_FIELDS) delete next[field];
  // Neither price written yet: the examples, the limit on the right side of the stop.
  if (type === 'stop_limit' && draft.limit_price === undefined && draft.stop_price === undefined) {
    return { ...next, ...stopLimitExamples(draft.action, provider) };
  }
  if (type === 'limit' || type === 'stop_limit') {
    next.limit_price = draft.limit_price ?? examplePrice('limit_price', provider);
  }
  if (type === 'stop' || type === 'stop_limit')
    next.stop_price = draft.stop_price ?? examplePrice('stop_price', provider);
  return next;
}

/** The draft with an action of the class; a cancel (no quantity) made an order gets the sample's quantity. */
function withValidAction(draft: OrderDraft, orderClass: OrderClass, provider?: Provider): OrderDraft {
  const action = draft.action as OrderAction;
  const valid = provider ? providerActions(provider.reference, orderClass) : actionsForClass(orderClass);
  const typed = withValidType(draft, orderClass, provider);
  if (valid.includes(action)) return typed;
  const next = { ...typed, action: firstActionFor(orderClass) };
  return wasExit(draft) ? withQuantity(next, provider) : next;
}

/** A type the provider takes for the class (Webull's crypto: no stop), else market. */
function withValidType(draft: OrderDraft, orderClass: OrderClass, provider?: Provider): OrderDraft {
  const type = draft.type as OrderType | undefined;
  if (!provider?.reference.type?.byClass || type === undefined) return draft;
  return providerTypes(provider.reference, orderClass).includes(type) ? draft : withType(draft, 'market', provider);
}

function draftClass(draft: OrderDraft): OrderClass {
  const value = draft.class;
  return typeof value === 'string' && (ORDER_CLASSES as readonly string[]).includes(value)
    ? (value as OrderClass)
    : 'stock';
}
