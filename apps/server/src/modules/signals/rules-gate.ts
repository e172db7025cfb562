// Where the signal path meets a hook's risk controls (modules/hooks/rules): the checks before
// normalization, those of the normalized order, and the shared order counts. Only hooks with
// rules get here; refusals go back to submit.ts's refuse(), like every other refusal.
import type { HookEntry } from '../hooks/index.ts';
import {
  type CompiledRules,
  checkSource,
  checkWindow,
  prepareBody,
  type RuleRefusal,
  type TakenCount,
  takeCount,
} from '../hooks/rules/index.ts';
import type { SignalRuntime } from './runtime.ts';

/** Address, trading window, then the body (signal time, symbol map): what to normalize, or a refusal. */
export function rulesBefore(rules: CompiledRules, address: string, request: string): string | object | RuleRefusal {
  const refused = checkSource(rules, address) ?? checkWindow(rules, new Date());
  if (refused) return refused;
  return rules.readsBody ? prepareBody(rules, request, Date.now()) : request;
}

/** Counts the signal for maxOrdersPer*: a count to give back if not stored, a refusal, or our outage. */
export async function countSignal(
  rt: SignalRuntime,
  entry: HookEntry,
  rules: CompiledRules,
): Promise<TakenCount | RuleRefusal | 'outage' | undefined> {
  try {
    return await takeCount(rt.services.db.$client, entry.hookId, rules);
  } catch (error) {
    rt.services.log.error({ err: error }, 'hook count not taken');
    return 'outage';
  }
}
