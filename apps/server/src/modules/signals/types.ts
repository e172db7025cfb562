// What the hook path passes around: a cached hook with its connector, and an answer to send.
import type { Broker } from '@router/brokers';
import type { SessionConnector } from '../connectors/index.ts';

/** One hook as the hook path needs it; cached in process, invalidated by hook_changed. */
export interface HookEntry {
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
  connector: SessionConnector;
}

/** SPEC §8: 201 with the order response, or 400/404/413/429 with {status, message}. */
export interface Answer {
  statusCode: number;
  body: Record<string, unknown>;
}

/** The order response statuses that end a signal (anything else is still on its way). */
export const FINAL_STATUSES: ReadonlySet<string> = new Set([
  'filled',
  'accepted',
  'rejected',
  'canceled',
  'failed',
  'draft',
]);
