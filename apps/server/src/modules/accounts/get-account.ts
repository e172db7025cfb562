// SPEC §3 Account for the `account` query: balance (signals left), credits, the recurring plan,
// and metadata limited to what SPEC names (creditsTotal, recurring.cancelAt, payments[]); sign-up
// codes kept on the row stay on the server.
import { findAccountOfUser } from '../../db/repositories/account-query.repository.ts';
import { ACCOUNT_TYPE, DEFAULT_CREDITS } from '../../db/schema/index.ts';
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
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The caller's account; a user without a row (created before accounts existed) sees the defaults. */
export async function getAccount(services: Services, userId: number): Promise<AccountView> {
  const row = await findAccountOfUser(services.db, userId);
  const stored = row?.metadata ?? {};
  const creditsTotal =
    typeof stored.creditsTotal === 'number' ? stored.creditsTotal : (row?.credits ?? DEFAULT_CREDITS);
  return {
    type: row?.type ?? ACCOUNT_TYPE.BASE,
    balance: row?.balance ?? DEFAULT_CREDITS,
    credits: row?.credits ?? DEFAULT_CREDITS,
    recurringCredits: row?.recurringCredits ?? 0,
    recurringPeriodCredits: row?.recurringPeriodCredits ?? 0,
    recurringPeriodEnd: row?.recurringPeriodEnd ? Math.floor(row.recurringPeriodEnd.getTime() / 1000) : null,
    metadata: {
      creditsTotal,
      recurring: isObject(stored.recurring) ? stored.recurring : {},
      payments: Array.isArray(stored.payments) ? stored.payments : [],
    },
    // Products (subscriptions) arrive with billing.
    product: null,
  };
}
