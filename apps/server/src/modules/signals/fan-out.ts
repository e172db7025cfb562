// rules.fanOut: a signal stored as new on the hook's own account (the first leg) is copied to each
// other account listed, its quantity times the leg's multiplier. Each leg is a signal of its own:
// its idempotency key is `leg<n>:` before the first's, its id (the broker's client order id) is
// derived from the first's, so it is stored, charged one credit, sent and reconciled exactly once
// like any signal, and gets its own Order activity entry (with its accountId). Legs run after the
// first is stored, each on its own: one leg's refusal or failure never touches another.
import { roundToTick } from '@router/brokers';
import { normalizeOrder, type Order } from '@router/orders';
import type { FanOutTarget } from '../hooks/hook-entry.ts';
import { MAX_MULTIPLIER } from '../hooks/rules/settings.ts';
import { CONNECTOR_INACTIVE, ruleRefused } from './answers.ts';
import { checkOrderLimits } from './rules-gate.ts';
import type { SignalRuntime } from './runtime.ts';
import type { Signal } from './send.ts';
import { legSignalId } from './signal-id.ts';
import { accountGone, place, refuse, type SignalInput } from './submit.ts';

/** `body`: what the first leg normalized (after the symbol map), normalized again per leg's broker. */
export function startFanOut(rt: SignalRuntime, input: SignalInput, first: Signal, body: string | object): void {
  first.entry.fanOut.forEach((target, index) => {
    // Held as in flight from the start: a shutdown waits for the leg (its broker may be asked
    // first, a maxNotional price), not only once it is stored; before, the pool closed under it
    // and the copy was lost, with nothing stored to reconcile.
    void rt.inFlight.hold(
      placeLeg(rt, input, first, body, target, index + 1).catch((error: unknown) =>
        rt.services.log.error({ err: error, signalId: first.id, leg: index + 1 }, 'fan-out leg failed'),
      ),
    );
  });
}

async function placeLeg(
  rt: SignalRuntime,
  input: SignalInput,
  first: Signal,
  body: string | object,
  target: FanOutTarget,
  leg: number,
) {
  const { request } = first;
  const name = `fanOut[${leg - 1}]`;
  const entry = target.entry;
  if (!entry) {
    const gone = ruleRefused('fanOut', `${name}: connector ${target.connectorKey} no longer exists`);
    return refuse(rt, input, gone, request);
  }
  const legInput: SignalInput = { ...input, entry };
  if (!entry.isActive || !entry.connectorActive || !entry.broker)
    return refuse(rt, legInput, CONNECTOR_INACTIVE, request);
  if (accountGone(entry)) {
    const gone = `${name}: account ${target.accountId} is no longer connected; reconnect the broker with that account`;
    return refuse(rt, legInput, ruleRefused('fanOut', gone), request);
  }
  // Saved before the multiplier had a bound (settings.ts): 1e300 would send an order of 1e300 shares.
  if (target.multiplier > MAX_MULTIPLIER) {
    const why = `${name}.multiplier: ${target.multiplier} is more than ${MAX_MULTIPLIER}; save this webhook's risk controls with a smaller one`;
    return refuse(rt, legInput, ruleRefused('fanOut', why), request);
  }
  // Normalized for this leg's broker (its own defaults and limits), then sized.
  const normalized = normalizeOrder(body, { provider: entry.broker.descriptor });
  if (!normalized.ok)
    return refuse(rt, legInput, ruleRefused('fanOut', `${name}: ${normalized.error.message}`), request);
  const order = scaled(normalized.order, target.multiplier);
  const unsized = unplaceableSize(normalized.order, order, target.multiplier);
  if (unsized) return refuse(rt, legInput, ruleRefused('fanOut', `${name}: ${unsized}`), request);
  // A percent the multiplier takes past 100 is more than the account has: 120 % of a position
  // would sell it and open the other way. Refused as the order language refuses it.
  const percent = order.quantity_type === 'percent_of_equity' || order.quantity_type === 'percent_of_position';
  if (percent && order.quantity !== undefined && order.quantity > 100) {
    const why = `quantity: must be at most 100 with quantity_type ${order.quantity_type} (50 means 50 %)`;
    return refuse(rt, legInput, ruleRefused('fanOut', `${name}: ${why}`), request);
  }
  // The leg's own broker prices it and reports its positions (maxNotional, maxPosition).
  const limit = first.entry.rules ? await checkOrderLimits(rt, entry, first.entry.rules, order) : undefined;
  if (limit) return refuse(rt, legInput, ruleRefused(limit.rule, `${name}: ${limit.message}`), request);
  // No maxOrdersPer* count of its own: the limits count the hook's signals (the first leg's), so
  // a copy never misses an order its first leg got (docs/RISK-CONTROLS.md, Fan-out).
  return place(rt, legInput, {
    id: legSignalId(first.id, leg),
    // In front, not behind: a first key is `c:<client_id>`, and a client_id may end in "#1".
    key: `leg${leg}:${first.key}`,
    order,
    request,
  });
}

/** Options and futures trade in whole contracts at every broker. */
const CONTRACTS: ReadonlySet<string> = new Set(['option', 'future']);

/**
 * The order with its quantities times the multiplier (close and cancel may carry none). A fixed
 * number of contracts of a single-leg order is rounded down to whole contracts: a copy is never
 * larger than its multiplier makes it (legs are not: rounding each would change their ratio).
 */
function scaled(order: Order, multiplier: number): Order {
  // To 1e-8, never above the exact share (0.123456789 is 0.12345678: rounded to the nearest it
  // bought more than the allocation gives); a share float noise put just under a step stays on it.
  const times = (q: number) => roundToTick(q * multiplier, 1e-8, 'down');
  const copy: Order = { ...order };
  const whole = order.quantity_type === 'fixed' && !order.legs?.length && CONTRACTS.has(order.class);
  if (copy.quantity !== undefined) copy.quantity = whole ? Math.floor(times(copy.quantity)) : times(copy.quantity);
  if (copy.legs) copy.legs = copy.legs.map((l) => ({ ...l, quantity: times(l.quantity) }));
  return copy;
}

/**
 * Why the scaled order cannot be placed, if it cannot: a quantity the multiplier took to nothing
 * (a close with quantity 0 could be read as "all" by a broker), or legs of contracts in fractions.
 */
function unplaceableSize(order: Order, copy: Order, multiplier: number): string | undefined {
  if (copy.quantity !== undefined && order.quantity !== undefined && copy.quantity <= 0) {
    const unit = CONTRACTS.has(order.class) && order.quantity_type === 'fixed' ? ' whole contracts' : '';
    return `quantity ${order.quantity} × multiplier ${multiplier} comes to 0${unit}: nothing to place on this account`;
  }
  const legs = copy.legs ?? [];
  for (const [i, leg] of legs.entries()) {
    if (leg.quantity <= 0 || (CONTRACTS.has(leg.class) && !Number.isInteger(leg.quantity))) {
      const why = leg.quantity <= 0 ? 'nothing to place on this account' : 'not a whole number of contracts';
      return `legs[${i}].quantity ${order.legs?.[i]?.quantity} × multiplier ${multiplier} comes to ${leg.quantity}: ${why}`;
    }
  }
  return undefined;
}
