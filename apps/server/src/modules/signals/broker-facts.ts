// Asks the hook's broker what the limits of broker-limits.ts need: the last price and/or the
// positions, in one opened session, both at once. Only when brokerNeeds says so (maxNotional of
// an order without a price, maxPosition), so every other signal makes no extra call. A broker
// that cannot answer refuses the signal with the rule's key and why: never an unchecked order.
import { isBrokerError } from '@router/brokers';
import type { Order } from '@router/orders';
import { isAppError } from '../../errors.ts';
import { withBrokerSession } from '../connectors/index.ts';
import type { HookEntry } from '../hooks/index.ts';
import type { BrokerFacts, BrokerNeeds } from '../hooks/rules/broker-limits.ts';
import { ownPrice, type RuleRefusal, refusal } from '../hooks/rules/check.ts';
import type { CompiledRules } from '../hooks/rules/compile.ts';
import type { SignalRuntime } from './runtime.ts';

/**
 * The facts, or the refusal of a broker that cannot give them. `entry` is the account asked (a
 * fan-out leg's own, which carries no rules), `rules` the hook's.
 */
export async function askBroker(
  rt: SignalRuntime,
  entry: HookEntry,
  rules: CompiledRules,
  order: Order,
  needs: BrokerNeeds,
): Promise<BrokerFacts | RuleRefusal> {
  const { broker, title } = entry;
  // The quote serves maxNotional when it values the order (a fixed quantity, or a cash amount at a
  // price the market may be past: broker-limits.ts), else maxPosition (a cash or equity amount to
  // size at market): a cash amount at market is its own notional.
  const valued = order.quantity_type === 'fixed' || (order.quantity_type === 'cash' && ownPrice(order) !== undefined);
  const quoteRule = rules.maxNotional !== undefined && valued ? 'maxNotional' : 'maxPosition';
  if (needs.quote && (!broker?.lastPrice || !broker.descriptor.has.lastPrice)) {
    return refusal(
      quoteRule,
      `a ${order.type} order has no price to value it with and ${title} quotes no last price here; send a limit price`,
    );
  }
  if (needs.positions && (!broker?.getHoldings || broker.descriptor.has.getHoldings === false)) {
    return refusal('maxPosition', `${title} does not report positions, so no position can be checked`);
  }
  try {
    return await withBrokerSession(
      rt.services,
      entry.connector,
      async ({ broker: b, ctx, session }) => {
        const [lastPrice, holdings] = await Promise.all([
          needs.quote
            ? b.lastPrice?.(ctx, session, entry.accountId, order.symbol, order.class, order.exchange)
            : undefined,
          needs.positions ? b.getHoldings?.(ctx, session, entry.accountId) : undefined,
        ]);
        if (needs.quote && !(typeof lastPrice === 'number' && lastPrice > 0)) {
          // A priced order asks only when its price does not bound its fill (fillsPastItsPrice).
          const why =
            ownPrice(order) === undefined
              ? 'send a limit price'
              : `a ${order.action} ${order.type} order fills at the market once it is past its price; nothing was placed`;
          return refusal(quoteRule, `${title} has no last price for ${order.symbol}; ${why}`);
        }
        const facts: BrokerFacts = {};
        if (typeof lastPrice === 'number') facts.lastPrice = lastPrice;
        if (holdings) {
          facts.positions = holdings.positions;
          if (holdings.equity !== undefined) facts.equity = holdings.equity;
        }
        return facts;
      },
      { signal: AbortSignal.timeout(rt.services.config.HOOK_DEADLINE_MS) },
    );
  } catch (error) {
    const what = needs.quote ? `a last price for ${order.symbol}` : 'the positions';
    // Our own failures say nothing a trader can act on (and are logged); the broker's do.
    const why = isBrokerError(error) || isAppError(error) ? error.message : 'no answer';
    if (!isBrokerError(error)) rt.services.log.error({ err: error }, 'broker facts not read');
    return refusal(
      needs.quote ? quoteRule : 'maxPosition',
      `${title} did not give ${what} (${why}); nothing was placed`,
    );
  }
}
