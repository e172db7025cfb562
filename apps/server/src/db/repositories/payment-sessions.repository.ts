// Our record of each Stripe Checkout or billing-portal session (payment_sessions): its id is the
// Idempotency-Key of the Stripe call; the webhook reads back what was sold.
import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import { paymentSessions } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import { newestFirst } from './newest-first.ts';

export type PaymentSessionRow = typeof paymentSessions.$inferSelect;
export type NewPaymentSession = Omit<typeof paymentSessions.$inferInsert, 'id' | 'stripeId' | 'createdAt'>;

export async function insertPaymentSession(db: Executor, session: NewPaymentSession): Promise<PaymentSessionRow> {
  const [row] = await db.insert(paymentSessions).values(session).returning();
  if (!row) throw new Error('insert into payment_sessions returned no row');
  return row;
}

export async function setPaymentSessionStripeId(db: Executor, id: number, stripeId: string): Promise<void> {
  await db
    .update(paymentSessions)
    .set({ stripeId })
    .where(
      and(eq(paymentSessions.id, id), or(isNull(paymentSessions.stripeId), eq(paymentSessions.stripeId, stripeId))),
    );
}

export async function findPaymentSession(db: Executor, id: number): Promise<PaymentSessionRow | undefined> {
  const [row] = await db.select().from(paymentSessions).where(eq(paymentSessions.id, id)).limit(1);
  return row;
}

/** The latest row of this Stripe session. */
export async function findPaymentSessionByStripeId(
  db: Executor,
  stripeId: string,
): Promise<PaymentSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentSessions)
    .where(eq(paymentSessions.stripeId, stripeId))
    .orderBy(desc(paymentSessions.id))
    .limit(1);
  return row;
}

/** The user's latest card-form session for this price and discount made after `since` (a reload reuses it). */
export async function findRecentSession(
  db: Executor,
  match: Pick<PaymentSessionRow, 'userId' | 'kind' | 'stripePriceId' | 'discount'>,
  since: Date,
): Promise<PaymentSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentSessions)
    .where(
      and(
        eq(paymentSessions.userId, match.userId),
        eq(paymentSessions.kind, match.kind),
        match.stripePriceId === null
          ? isNull(paymentSessions.stripePriceId)
          : eq(paymentSessions.stripePriceId, match.stripePriceId),
        match.discount === null ? isNull(paymentSessions.discount) : eq(paymentSessions.discount, match.discount),
        gt(paymentSessions.createdAt, since),
      ),
    )
    .orderBy(newestFirst(paymentSessions.createdAt))
    .limit(1);
  return row;
}
