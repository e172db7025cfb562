// Signal credits (SPEC §3 Account): the causes of a change in the credit ledger, their labels,
// and when the web app warns about low credits.

/** SPEC §9: a new account's credits (the sign-up grant unless SIGNAL_CREDITS sets another). */
export const DEFAULT_CREDITS = 5;

/**
 * Why a ledger row changed the balance. Grants add; `signal` spends one credit per live signal,
 * `refund` gives it back when the order failed, `lapse` removes a period's unused credits,
 * `opening` is an account's balance when the ledger began (or the account was created with
 * credits), `adjustment` a balance written directly in SQL, `reversal` a pack's credits taken back
 * when Stripe refunded its payment or the card's bank disputed it (held while open, kept when
 * lost), `restore` what a reversal took given back when its refund failed or the dispute was won
 * (no new grant).
 */
export const CREDIT_CAUSES = [
  'signup',
  'purchase',
  'period',
  'reward',
  'referral',
  'signal',
  'refund',
  'lapse',
  'opening',
  'adjustment',
  'reversal',
  'restore',
] as const;
export type CreditCause = (typeof CREDIT_CAUSES)[number];

/** The causes that add credits someone gave (the "last grant" the low-credit warning measures against). */
export const GRANT_CAUSES = ['signup', 'purchase', 'period', 'reward', 'referral', 'opening'] as const;
export type GrantCause = (typeof GRANT_CAUSES)[number];

export const CREDIT_CAUSE_LABELS: Record<CreditCause, string> = {
  signup: 'Sign-up credits',
  purchase: 'Purchase',
  period: 'Plan credits for the period',
  reward: 'Reward',
  referral: 'Referral',
  signal: 'Signal sent',
  refund: 'Refund (order failed)',
  lapse: 'Unused plan credits lapsed',
  opening: 'Opening balance',
  adjustment: 'Adjustment',
  reversal: 'Purchase refunded',
  restore: 'Refund failed: credits back',
};

/**
 * A reversal or restore of a dispute (chargeback) by the card's bank, not of a refund: held from
 * its opening (kept when lost), given back when won.
 */
export const DISPUTE_CAUSE_LABELS: Partial<Record<CreditCause, string>> = {
  reversal: 'Payment disputed: credits taken back',
  restore: 'Dispute won: credits back',
};

/** The label of a ledger entry's cause; `dispute`: the entry is a dispute's (LedgerEntry.dispute). */
export function creditCauseLabel(cause: string, dispute = false): string {
  const labels: Record<string, string | undefined> = dispute ? DISPUTE_CAUSE_LABELS : {};
  return labels[cause] ?? (CREDIT_CAUSE_LABELS as Record<string, string>)[cause] ?? cause;
}

/** Credits are low at or below this share of the last grant. */
export const LOW_CREDITS_SHARE = 0.2;

/** What the low-credit banner says: nothing, low, or none left. */
export type CreditsAlert = 'exhausted' | 'low' | null;

export function creditsAlert(account: { balance: number; lastGrant: number | null; unlimited: boolean }): CreditsAlert {
  if (account.unlimited) return null;
  if (account.balance <= 0) return 'exhausted';
  if (account.lastGrant !== null && account.lastGrant > 0 && account.balance <= account.lastGrant * LOW_CREDITS_SHARE) {
    return 'low';
  }
  return null;
}

/** Ledger entries per page (SPEC §9's activity page size) and at most per request. */
export const LEDGER_PAGE_SIZE = 20;
export const LEDGER_PAGE_MAX = 100;
