// SPEC §3 Account for the `account` query: balance (signals left), credits, the recurring plan,
// and metadata limited to what SPEC names (creditsTotal, recurring.cancelAt, payments[]); sign-up
// codes kept on the row stay on the server. Also what the screens need beside SPEC's fields:
// signals spent, the last grant (low-credit banner), unlimited credits, card payments offered.
import { findAccountOfUser } from '../../db/repositories/account-query.repository.ts';
import { lastGrant } from '../../db/repositories/credits.repository.ts';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import type { Services } from '../../services.ts';

export interface AccountProductView {
  type: number;
  name: string;
  credits: number;
  /** Cents. */
  price: number;
}

export interface AccountView {
  type: number;
  balance: number;
  credits: number;
  recurringCredits: number;
  recurringPeriodCredits: number;
  /** Seconds since the epoch (SPEC §3). */
  recurringPeriodEnd: number | null;
  metadata: { creditsTotal: number; recurring: Record<string, unknown>; payments: unknown[] };
  product: AccountProductView | null;
  signalsSpent: number;
  lastGrant: number | null;
  unlimited: boolean;
  cardPayments: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The caller's account; a user without a row (made by SQL, not sign-up) has no credits. */
export async function getAccount(services: Services, userId: number): Promise<AccountView> {
  const [row, grant] = await Promise.all([findAccountOfUser(services.db, userId), lastGrant(services.db, userId)]);
  const stored = row?.metadata ?? {};
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
      payments: Array.isArray(stored.payments) ? stored.payments : [],
    },
    // Products (subscriptions) arrive with the Stripe stage of billing.
    product: null,
    signalsSpent: row?.signalsSpent ?? 0,
    lastGrant: grant,
    unlimited: services.config.SIGNAL_CREDITS.unlimited,
    cardPayments: services.config.STRIPE_SECRET_KEY !== undefined,
  };
}
