// One handler per Stripe event type (index.ts lists them). A handler reads what it needs from
// Stripe first, outside any transaction, and returns the change to make; the webhook applies it
// in the transaction that claims the event id, so the books change once or not at all, after
// taking the user's lock (one user's events apply one at a time). What Stripe may have changed
// since the first read (a subscription's status and items, a payment's refunds) `apply` reads
// again: an answer read before the lock may be older than what another event wrote meanwhile.
import type { Transaction } from '../../../db/repositories/executor.ts';
import type { Services } from '../../../services.ts';
import type { StripeClient } from '../stripe-client.ts';

export interface EventContext {
  services: Services;
  stripe: StripeClient;
  /** The Stripe event being applied. */
  eventId?: string;
}

/** What the event changes: `apply` (under the user's lock) returns the outcome recorded with the event. */
export type Effect =
  | { userId: number; apply: (tx: Transaction) => Promise<'applied' | 'unchanged'> }
  | { userId: number | null; outcome: 'unmatched' | 'unpaid' | 'ignored' };

export type EventHandler = (ctx: EventContext, object: unknown) => Promise<Effect>;

export const unmatched: Effect = { userId: null, outcome: 'unmatched' };

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
