// Stripe events taken by the webhook (stripe_events): claimed inside the transaction that applies
// them, so a repeat delivery, at this instance or another one, finds the row and stops.
import { eq, sql } from 'drizzle-orm';
import { stripeEvents } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export interface EventClaim {
  id: string;
  type: string;
  /** The event's `created`, seconds since the epoch. */
  created: number;
  objectId: string | null;
}

/** Whether the event was taken before (a cheap look before any call to Stripe). */
export async function eventSeen(db: Executor, id: string): Promise<boolean> {
  const rows = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).limit(1);
  return rows.length > 0;
}

/**
 * Inserts the event's row; false when it exists. A concurrent transaction inserting the same id
 * waits here until the first one commits (then false) or rolls back (then true).
 */
export async function claimEvent(db: Executor, event: EventClaim): Promise<boolean> {
  const rows = await db
    .insert(stripeEvents)
    .values({
      id: event.id,
      type: event.type,
      createdAt: new Date(event.created * 1000),
      objectId: event.objectId,
      outcome: 'pending',
    })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id });
  return rows.length > 0;
}

/**
 * One user's Stripe events apply one at a time (a transaction advisory lock, held to the commit):
 * what a handler reads from Stripe after taking it is at least as new as what the last holder
 * read and wrote. The account row is not the lock: signals spend under it and must not wait
 * for Stripe.
 */
export async function lockStripeUser(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`stripe-events:${userId}`}, 0))`);
}

/**
 * One payment's booking and the look-up of a refund or dispute of it (for pack and plan alike,
 * keyed by the Checkout session or invoice that pays it) take turns: a booking reads the charge's
 * refunds from Stripe under it and a refund's event looks for the booked payment under it, so a
 * refund made while its payment is being booked is seen by one of the two, never by neither.
 */
export async function lockStripePayment(db: Executor, reference: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`stripe-payment:${reference}`}, 0))`);
}

export async function setEventOutcome(db: Executor, id: string, outcome: string, userId: number | null): Promise<void> {
  await db.update(stripeEvents).set({ outcome, userId }).where(eq(stripeEvents.id, id));
}
