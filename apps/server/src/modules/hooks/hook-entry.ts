// A hook as a signal needs it: the hook, its connector and broker, loaded by short key (one query
// on the unique short_key index) and cached in process (hook-cache.ts). Entries are never changed
// once made: a change is a new entry, loaded after the cached one is dropped.
import type { Broker } from '@router/brokers';
import { SHORT_KEY_PATTERN } from '@router/shared';
import {
  type HookForSignal,
  selectConnectorsForSignal,
  selectHookForSignal,
} from '../../db/repositories/hooks.repository.ts';
import type { Services } from '../../services.ts';
import type { SessionConnector } from '../connectors/index.ts';
import { type CompiledRules, compileRules } from './rules/compile.ts';
import { hookRulesSchema } from './rules/settings.ts';

export type HookEntry = Readonly<{
  hookId: number;
  hookKey: string;
  shortKey: string;
  name: string;
  userId: number;
  accountId: string;
  isActive: boolean;
  isTest: boolean;
  /** The REST API's own hook (hooks.is_api, toHookEntry): its signals are the API's orders. */
  isApi?: true;
  /** The REST API's caller placing this order (ApiPrincipal.caller), named on its activity entry. */
  via?: string;
  deactivatedReason: string | null;
  /** The kill switch's reason while the user's webhooks are paused (hooksPause). */
  pausedReason: string | null;
  /** Risk controls, compiled once here; null for a hook without any (no step of them runs). */
  rules: CompiledRules | null;
  connectorId: number;
  connectorKey: string;
  connectorActive: boolean;
  providerName: string;
  /** Undefined when the provider is no longer offered by this server. */
  broker: Broker | undefined;
  /** Provider title, for messages ('<Title>: …'). */
  title: string;
  /** What withBrokerSession needs (it keeps the opened secrets per connector version). */
  connector: Readonly<SessionConnector>;
  /** rules.fanOut's other accounts, in order; `entry` null when its connector is gone. */
  fanOut: readonly FanOutTarget[];
}>;

export interface FanOutTarget {
  connectorKey: string;
  accountId: string;
  multiplier: number;
  /** The hook as seen from the leg's account: its connector, broker and account; no rules. */
  entry: HookEntry | null;
}

/**
 * The hook with the connector fields a signal needs; undefined for an unknown key. `connector`
 * fits withBrokerSession as is.
 */
export async function findHookForSignal(services: Services, shortKey: string): Promise<HookForSignal | undefined> {
  if (!SHORT_KEY_PATTERN.test(shortKey)) return undefined;
  return selectHookForSignal(services.db, shortKey);
}

/** The cache's loader: the entry of a short key, or null for an unknown one. */
export async function loadHookEntry(services: Services, shortKey: string): Promise<HookEntry | null> {
  const row = await findHookForSignal(services, shortKey);
  if (!row) return null;
  const rules = row.rules === null ? null : compileRules(hookRulesSchema.parse(row.rules));
  const entry = await asEntry(services, row, row.connector, row.accountId, rules, []);
  if (!rules?.fanOut.length) return entry;
  // Only hooks that fan out pay this second query, and only when they are cached.
  const keys = rules.fanOut.map((leg) => leg.connectorKey);
  const connectors = await selectConnectorsForSignal(services.db, row.userId, keys);
  const fanOut = await Promise.all(
    rules.fanOut.map(async (leg): Promise<FanOutTarget> => {
      const connector = connectors.find((c) => c.key === leg.connectorKey);
      return { ...leg, entry: connector ? await asEntry(services, row, connector, leg.accountId, null, []) : null };
    }),
  );
  return { ...entry, fanOut };
}

/** The REST API's hook of an account (no rules, no fan-out) as the signal path takes it. */
export async function toHookEntry(services: Services, row: HookForSignal): Promise<HookEntry> {
  return { ...(await asEntry(services, row, row.connector, row.accountId, null, [])), isApi: true };
}

/** The entry of one account; its broker's adapter is loaded here, once per broker and process. */
async function asEntry(
  services: Services,
  row: HookForSignal,
  connector: HookForSignal['connector'],
  accountId: string,
  rules: CompiledRules | null,
  fanOut: readonly FanOutTarget[],
): Promise<HookEntry> {
  const broker = await services.brokers.load(connector.providerName);
  return {
    hookId: row.hookId,
    hookKey: row.hookKey,
    shortKey: row.shortKey,
    name: row.name,
    userId: row.userId,
    accountId,
    isActive: row.isActive,
    isTest: row.isTest,
    deactivatedReason: row.deactivatedReason,
    pausedReason: row.pausedReason,
    rules,
    connectorId: connector.id,
    connectorKey: connector.key,
    connectorActive: connector.isActive,
    providerName: connector.providerName,
    broker,
    title: broker?.descriptor.title ?? connector.providerName,
    connector,
    fanOut,
  };
}
