// SPEC §3 Account for the `account` query: balance (signals left), credits, the recurring plan,
// and metadata limited to what SPEC names (creditsTotal, recurring.cancelAt, payments[]); sign-up
// codes kept on the row stay on the server; payments[] are the rows of `payments`, newest first.
// Also what the screens need beside SPEC's fields: signals spent, the last grant (low-credit
// banner), unlimited credits, card payments offered, the payments as typed entries.
import { isObject } from '@router/shared';
import { findAccountOfUser } from '../../db/repositories/account-query.repository.ts';
import { professionalAppliedAt } from '../../db/repositories/billing-account.repository.ts';
import { lastGrant } from '../../db/repositories/credits.repository.ts';
import { listPayments, type PaymentDisputeStatus, type PaymentRow } from '../../db/repositories/payments.repository.ts';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import type { Services } from '../../services.ts';

export interface AccountProductView {
  type: number;
  name: string;
  credits: number;
  /** Cents. */
  price: number;
  /** Stripe's currency code of `price` (usd). */
  currency: string;
  /** The plan's billing interval (month, year). */
  interval: string | null;
  /** The plan sells professional status. */
  professional: boolean;
}

/** SPEC §3 Payment entry, with what the payments table shows beside it. */
export interface PaymentView {
  credits: number;
  /** Cents. */
  price: number;
  currency: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  stripeInvoiceId: string | null;
  description: string;
  /** A plan's interval ('per month'); null for a one-time purchase. */
  interval: string | null;
  /** Cents given back since (Stripe refunds, disputes open or lost); 0 when none. */
  refunded: number;
  /** The card bank's dispute of it; null when none. */
  dispute: PaymentDisputeView | null;
}

/** A dispute of a payment: open (under review), won or lost; `amount` in cents. */
export interface PaymentDisputeView {
  status: PaymentDisputeStatus;
  amount: number;
}

export interface AccountView {
  type: number;
  balance: number;
  credits: number;
  recurringCredits: number;
  recurringPeriodCredits: number;
  /** Seconds since the epoch (SPEC §3). */
  recurringPeriodEnd: number | null;
  metadata: {
    creditsTotal: number;
    recurring: Record<string, unknown>;
    /** A plan for professional status alone beside the plan shown (billing plan.ts showMembership). */
    membership?: Record<string, unknown>;
    payments: PaymentView[];
  };
  product: AccountProductView | null;
  payments: PaymentView[];
  signalsSpent: number;
  lastGrant: number | null;
  unlimited: boolean;
  cardPayments: boolean;
  /** When the user last sent their application for professional status (ms), null when never. */
  professionalAppliedAt: number | null;
}

/** Recent payments shown on Account & Billing. */
export const RECENT_PAYMENTS = 24;

const paymentView = (row: PaymentRow): PaymentView => ({
  credits: row.credits,
  price: row.price,
  currency: row.currency,
  createdAt: row.createdAt.getTime(),
  stripeInvoiceId: row.stripeInvoiceId,
  description: row.description,
  interval: row.interval,
  refunded: row.refunded,
  dispute: row.dispute ? { status: row.dispute as PaymentDisputeStatus, amount: row.disputed } : null,
});

function productView(stored: Record<string, unknown> | null | undefined): AccountProductView | null {
  if (!isObject(stored)) return null;
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  return {
    type: number(stored.type) || ACCOUNT_TYPE.RECURRING,
    name: typeof stored.name === 'string' ? stored.name : 'Plan',
    credits: number(stored.credits),
    price: number(stored.price),
    currency: typeof stored.currency === 'string' ? stored.currency : 'usd',
    interval: typeof stored.interval === 'string' ? stored.interval : null,
    professional: stored.professional === true,
  };
}

/** The caller's account; a user without a row (made by SQL, not sign-up) has no credits. */
export async function getAccount(services: Services, userId: number): Promise<AccountView> {
  const [row, grant, paid, applied] = await Promise.all([
    findAccountOfUser(services.db, userId),
    lastGrant(services.db, userId),
    listPayments(services.db, userId, RECENT_PAYMENTS),
    professionalAppliedAt(services.db, userId),
  ]);
  const stored = row?.metadata ?? {};
  const payments = paid.map(paymentView);
  return {
    type: row?.type ?? ACCOUNT_TYPE.BASE,
    balance: row?.balance ?? 0,
    credits: row?.credits ?? 0,
    recurringCredits: row?.recurringCredits ?? 0,
    recurringPeriodCredits: row?.recurringPeriodCredits ?? 0,
    recurringPeriodEnd: row?.recurringPeriodEnd ? Math.floor(row.recurringPeriodEnd.getTime() / 1000) : null,
    metadata: {
      creditsTotal: typeof stored.creditsTotal === 'number' ? stored.creditsTotal : 0,
      recurring: isObject(stored.recurring) ? stored.recurring : {},
      ...(isObject(stored.membership) ? { membership: stored.membership } : {}),
      payments,
    },
    product: productView(row?.product),
    payments,
    signalsSpent: row?.signalsSpent ?? 0,
    lastGrant: grant,
    unlimited: services.config.SIGNAL_CREDITS.unlimited,
    cardPayments: services.config.STRIPE_SECRET_KEY !== undefined,
    professionalAppliedAt: applied?.getTime() ?? null,
  };
}
