// SPEC §3 Payment entries (payments): recorded by the Stripe webhook, once per paying Checkout
// session or invoice (`reference` is unique), read by Account & Billing.
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { payments } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import { newestFirst } from './newest-first.ts';

export type PaymentRow = typeof payments.$inferSelect;
/** A dispute of the payment's charge: open (the bank holds the money, under review), won or lost. */
export type PaymentDisputeStatus = 'open' | 'won' | 'lost';
export type NewPayment = Omit<typeof payments.$inferInsert, 'id' | 'createdAt'>;

/** Records the payment; false when its reference is recorded already (its invoice id is then filled in if missing). */
export async function recordPayment(db: Executor, payment: NewPayment): Promise<boolean> {
  const rows = await db.insert(payments).values(payment).onConflictDoNothing().returning({ id: payments.id });
  if (rows.length > 0) return true;
  if (payment.stripeInvoiceId) await setPaymentInvoice(db, payment.reference, payment.stripeInvoiceId);
  return false;
}

/** The invoice Stripe made for a Checkout payment, once known. */
export async function setPaymentInvoice(db: Executor, reference: string, stripeInvoiceId: string): Promise<void> {
  await db
    .update(payments)
    .set({ stripeInvoiceId })
    .where(and(eq(payments.reference, reference), isNull(payments.stripeInvoiceId)));
}

export async function findPaymentByReference(db: Executor, reference: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.reference, reference)).limit(1);
  return row;
}

/** Raises the cents given back (refunds and disputes open or lost, in total); false when it was that already. */
export async function setPaymentRefunded(db: Executor, reference: string, refunded: number): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ refunded })
    .where(and(eq(payments.reference, reference), lt(payments.refunded, refunded)))
    .returning({ id: payments.id });
  return rows.length > 0;
}

/** The charge's dispute as Stripe holds it now (null: none); false when it was recorded so already. */
export async function setPaymentDispute(
  db: Executor,
  reference: string,
  dispute: { status: PaymentDisputeStatus; amount: number } | null,
): Promise<boolean> {
  const status = dispute?.status ?? null;
  const amount = dispute?.amount ?? 0;
  const rows = await db
    .update(payments)
    .set({ dispute: status, disputed: amount })
    .where(
      and(
        eq(payments.reference, reference),
        sql`(${payments.dispute} is distinct from ${status} or ${payments.disputed} <> ${amount})`,
      ),
    )
    .returning({ id: payments.id });
  return rows.length > 0;
}

/** Lowers the cents given back by a refund that failed after it was counted (never below 0). */
export async function lowerPaymentRefunded(db: Executor, reference: string, amount: number): Promise<void> {
  await db
    .update(payments)
    .set({ refunded: sql`greatest(${payments.refunded} - ${amount}, 0)` })
    .where(eq(payments.reference, reference));
}

export async function listPayments(db: Executor, userId: number, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(newestFirst(payments.createdAt), desc(payments.id))
    .limit(limit);
}

export async function findPaymentByInvoice(db: Executor, userId: number, stripeInvoiceId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.stripeInvoiceId, stripeInvoiceId)))
    .limit(1);
  return row;
}

/**
 * Whether the user keeps a one-time payment for professional status (our Checkout session sold
 * it, not all of its money given back), other than `except` (a payment's reference), bought after
 * `boughtAfter` when given (an administrator's removal: what was bought before it gives nothing).
 */
export async function keepsProfessionalPayment(
  db: Executor,
  userId: number,
  except: string | null,
  boughtAfter: Date | null = null,
): Promise<boolean> {
  const since = boughtAfter === null ? sql`true` : sql`s.created_at > ${boughtAfter.toISOString()}::timestamptz`;
  const { rows } = await db.execute(sql`
    select 1 from payments p join payment_sessions s on s.stripe_id = p.reference and s.user_id = p.user_id
    where p.user_id = ${userId} and s.professional and (p.refunded < p.price or p.price = 0)
      and p.reference is distinct from ${except} and ${since}
    limit 1`);
  return rows.length > 0;
}
