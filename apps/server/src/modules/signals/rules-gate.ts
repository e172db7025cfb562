// Where the signal path meets a hook's risk controls (modules/hooks/rules): the checks before
// normalization, those of the normalized order, and the shared order counts. Only hooks with
// rules get here; refusals go back to submit.ts's refuse(), like every other refusal.

import type { Holding } from '@router/brokers';
import { isExitAction, type NormalizeOptions, normalizeOrder, type Order } from '@router/orders';
import type { HookEntry } from '../hooks/index.ts';
import { brokerNeeds, checkWithBroker, mayBeWayOut, wayOut } from '../hooks/rules/broker-limits.ts';
import {
  type CompiledRules,
  checkOrder,
  checkSource,
  checkWindow,
  isRefusal,
  lotsAt,
  prepareBody,
  type RuleRefusal,
  type TakenCount,
  takeCount,
} from '../hooks/rules/index.ts';
import { askBroker } from './broker-facts.ts';
import type { SignalRuntime } from './runtime.ts';

/**
 * Address, trading window, then the body (signal time, symbol map): what to normalize, or a
 * refusal. A queued signal being placed (`queued`) had its window checked by the sweeper and its
 * age when it arrived: a trader queues it to have it placed at the opening, however long that is.
 * Outside the windows, a close or cancel goes on (wayOutOfWindow).
 */
export function rulesBefore(
  rules: CompiledRules,
  address: string,
  request: string,
  provider: NormalizeOptions['provider'],
  queued = false,
): string | object | RuleRefusal {
  const refused = checkSource(rules, address) ?? (queued ? undefined : checkWindow(rules, new Date()));
  if (refused?.rule === 'tradingWindows') return wayOutOfWindow(rules, request, provider) ?? refused;
  if (refused) return refused;
  return rules.readsBody ? prepareBody(rules, request, Date.now(), !queued) : request;
}

/**
 * The way out of the trading windows: outside them, a signal that reads as a `close` or `cancel`
 * is placed now, neither refused nor queued (as maxQuantity, maxNotional, maxPosition and the
 * order counts let it through): it can neither open nor grow a position, and a trader must not
 * be held in one until the window opens. Returns the body to normalize (the rest of the controls
 * apply as to any signal), or undefined: the window's refusal (or queue) stands.
 */
function wayOutOfWindow(
  rules: CompiledRules,
  request: string,
  provider: NormalizeOptions['provider'],
): string | object | undefined {
  const body = rules.readsBody ? prepareBody(rules, request, Date.now()) : request;
  if (isRefusal(body)) return undefined;
  const normalized = normalizeOrder(body, { provider });
  return normalized.ok && isExitAction(normalized.order.action) ? body : undefined;
}

/**
 * Counts the signal for maxOrdersPer*: a count to give back if not stored, a refusal, or our
 * outage. A close or cancel is counted while within the limits, but never refused by them (then
 * placed uncounted): it cannot open or grow a position, and a trader must always be able to get
 * out, not be held in a position until the next day because the day's orders are reached.
 */
export async function countSignal(
  rt: SignalRuntime,
  entry: HookEntry,
  rules: CompiledRules,
  order: Order,
): Promise<TakenCount | RuleRefusal | 'outage' | undefined> {
  try {
    const counted = await takeCount(rt.services.db.$client, entry.hookId, rules);
    return isRefusal(counted) && isExitAction(order.action) ? undefined : counted;
  } catch (error) {
    rt.services.log.error({ err: error }, 'hook count not taken');
    return 'outage';
  }
}

/**
 * The order's own limits (symbols, maxQuantity, maxNotional when priced), then those that need
 * the broker (a market order's maxNotional, maxPosition), asked only when a rule needs them.
 * `entry` is the account the order goes to (a fan-out leg's own).
 */
export async function checkOrderLimits(
  rt: SignalRuntime,
  entry: HookEntry,
  rules: CompiledRules,
  order: Order,
): Promise<RuleRefusal | undefined> {
  const refused = checkOrder(rules, order, lotsAt(entry.broker?.descriptor));
  if (refused) return unlessWayOut(rt, entry, rules, order, refused);
  const quotes = Boolean(entry.broker?.lastPrice && entry.broker.descriptor.has.lastPrice);
  const needs = brokerNeeds(rules, order, quotes);
  if (!needs) return undefined;
  const facts = await askBroker(rt, entry, rules, order, needs);
  // No price to value it with (none quoted, the quote failed): a maxNotional refusal, lifted like every
  // other refusal for the way out of a position held (a market sell of the long).
  if ('rule' in facts) return unlessWayOut(rt, entry, rules, order, facts);
  const over = checkWithBroker(rules, order, facts);
  return over ? unlessWayOut(rt, entry, rules, order, over, facts.positions) : undefined;
}

/**
 * A maxQuantity or maxNotional refusal of an order that only takes the position held towards
 * flat (a trader must always be able to get out): lifted when the broker's positions say so.
 * Asked only then, and only of a broker that reports positions; when they cannot be known the
 * refusal stands (a `close` needs none: it is never refused by these limits).
 */
export async function unlessWayOut(
  rt: SignalRuntime,
  entry: HookEntry,
  rules: CompiledRules,
  order: Order,
  refused: RuleRefusal,
  known?: readonly Holding[],
): Promise<RuleRefusal | undefined> {
  if (!mayBeWayOut(refused, order)) return refused;
  let positions = known;
  if (!positions) {
    const facts = await askBroker(rt, entry, rules, order, { quote: false, positions: true });
    if ('rule' in facts) return refused;
    positions = facts.positions;
  }
  return positions && wayOut(order, positions) ? undefined : refused;
}
