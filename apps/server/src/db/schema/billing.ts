import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Stripe events taken by POST /api/stripe/webhook, one row per event id, inserted in the
 * transaction that applies the event: a repeat delivery (or the same event at two instances at
 * once) finds the row and changes nothing. No foreign key: the record outlives its user.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** The event's own `created`. */
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  /** `data.object.id`: the session, invoice or subscription the event is about. */
  objectId: text('object_id'),
  userId: bigint('user_id', { mode: 'number' }),
  /** What it changed: applied, unchanged (already booked), unmatched (not one of our users). */
  outcome: text('outcome').notNull(),
});

/**
 * Every Stripe Checkout or billing-portal session we ask for. The row id is the Idempotency-Key
 * of the Stripe call, so a retry (after a crash, or a reload of the sign-up checkout) gets the
 * session Stripe made the first time instead of a second one.
 */
export const paymentSessions = pgTable(
  'payment_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** hosted (Checkout page), elements (the card form on /signup/checkout), portal (Manage billing). */
    kind: text('kind', { enum: ['hosted', 'elements', 'portal'] }).notNull(),
    stripePriceId: text('stripe_price_id'),
    quantity: integer('quantity').notNull().default(1),
    /** The price's metadata.credits × quantity when the session was made. */
    credits: integer('credits').notNull().default(0),
    /** The price buys professional status (metadata.professional). */
    professional: boolean('professional').notNull().default(false),
    mode: text('mode', { enum: ['payment', 'subscription'] }),
    /** A coupon id or promotion code id applied to the session. */
    discount: text('discount'),
    /**
     * The Stripe session id once Stripe answered. Not declared unique: a Stripe-compatible stub
     * that answers one fixed id must not make every later purchase fail (Stripe's ids are unique).
     */
    stripeId: text('stripe_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_sessions_user_idx').on(t.userId, t.createdAt.desc()),
    index('payment_sessions_stripe_idx').on(t.stripeId),
  ],
);

/**
 * SPEC §3 Payment entry: what a user paid, for the recent payments table. `reference` is the
 * Checkout session (a one-time purchase) or the invoice (a plan period) that paid: unique, so
 * the checkout.session.completed and invoice.paid of one payment record it once.
 */
export const payments = pgTable(
  'payments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reference: text('reference').notNull().unique(),
    stripeInvoiceId: text('stripe_invoice_id').unique(),
    credits: integer('credits').notNull(),
    /** Cents paid. */
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    /** A plan's billing interval (month, year); null for a one-time purchase. */
    interval: text('interval'),
    /** Cents given back since: Stripe refunds, and disputes open or lost (charge.refunded, charge.dispute.*). */
    refunded: integer('refunded').notNull().default(0),
    /**
     * The charge's dispute (chargeback) as Stripe holds it now: 'open' (the bank holds the money,
     * under review), 'won' or 'lost'; null when none (an inquiry, warning_*, is none).
     */
    dispute: text('dispute'),
    /** Cents the dispute is for (counted in `refunded` while it is open or lost). */
    disputed: integer('disputed').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId, t.createdAt.desc()),
    check('payments_amounts_check', sql`${t.credits} >= 0 and ${t.price} >= 0`),
  ],
);

/** SPEC §2 Professional application: the answers of /me/account/upgrade, one per user. */
export const professionalApplications = pgTable('professional_applications', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the payment for professional status completed (webhook). */
  paidAt: timestamp('paid_at', { withTimezone: true }),
});
