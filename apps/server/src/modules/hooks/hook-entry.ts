// A hook as a signal needs it: the hook, its connector and broker, loaded by short key (one query
// on the unique short_key index) and cached in process (hook-cache.ts). Entries are never changed
// once made: a change is a new entry, loaded after the cached one is dropped.
import type { Broker } from '@router/brokers';
import { SHORT_KEY_PATTERN } from '@router/shared';
import { type HookForSignal, selectHookForSignal } from '../../db/repositories/hooks.repository.ts';
import type { Services } from '../../services.ts';
import type { SessionConnector } from '../connectors/index.ts';

export type HookEntry = Readonly<{
  hookId: number;
  hookKey: string;
  shortKey: string;
  name: string;
  userId: number;
  accountId: string;
  isActive: boolean;
  isTest: boolean;
  deactivatedReason: string | null;
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
}>;

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
  const broker = services.brokers.get(row.connector.providerName);
  return {
    hookId: row.hookId,
    hookKey: row.hookKey,
    shortKey: row.shortKey,
    name: row.name,
    userId: row.userId,
    accountId: row.accountId,
    isActive: row.isActive,
    isTest: row.isTest,
    deactivatedReason: row.deactivatedReason,
    connectorId: row.connector.id,
    connectorKey: row.connector.key,
    connectorActive: row.connector.isActive,
    providerName: row.connector.providerName,
    broker,
    title: broker?.descriptor.title ?? row.connector.providerName,
    connector: row.connector,
  };
}
