// metadata.recurring of the account (SPEC §3): the plan's Stripe state as the webhook stored it.
export interface Recurring {
  subscriptionId: string | null;
  status: string | null;
  /** Seconds since the epoch. */
  cancelAt: number | null;
  /** The running plan's current period end, its renewal (seconds); set even by a plan with no credits. */
  periodEnd: number | null;
  /** In a free trial (status trialing): when it ends and the first payment is due (seconds). */
  trialEnd: number | null;
  /** nextAttempt: when Stripe tries the payment again (seconds); null when it will not. */
  paymentFailed: { invoiceId: string; url: string | null; nextAttempt: number | null } | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The object at `key` of the account's metadata JSON; null when absent or not one. */
function metadataObject(metadata: string | null | undefined, key: string): Record<string, unknown> | null {
  try {
    const value = (JSON.parse(metadata ?? '{}') as Record<string, unknown>)[key];
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    // A metadata the server did not write: no plan details.
    return null;
  }
}

export function parseRecurring(metadata: string | null | undefined): Recurring {
  return recurringOf(metadataObject(metadata, 'recurring') ?? {});
}

function recurringOf(recurring: Record<string, unknown>): Recurring {
  const failed = recurring.paymentFailed as Record<string, unknown> | undefined;
  return {
    subscriptionId: text(recurring.subscriptionId),
    status: text(recurring.status),
    cancelAt: typeof recurring.cancelAt === 'number' ? recurring.cancelAt : null,
    periodEnd: typeof recurring.periodEnd === 'number' ? recurring.periodEnd : null,
    trialEnd: typeof recurring.trialEnd === 'number' ? recurring.trialEnd : null,
    paymentFailed:
      failed && typeof failed === 'object'
        ? {
            invoiceId: text(failed.invoiceId) ?? '',
            url: text(failed.url),
            nextAttempt: typeof failed.nextAttempt === 'number' ? failed.nextAttempt : null,
          }
        : null,
  };
}

/** A plan's name and price, as Account.product has them. */
export interface PlanTerms {
  name: string;
  credits: number;
  price: number;
  currency: string;
  interval: string | null;
  /** It sells professional status. */
  professional?: boolean | null;
}

/**
 * metadata.membership: a plan for professional status alone running beside the plan shown (one
 * for credits), its terms and state as metadata.recurring has the shown plan's; null when none.
 */
export function parseMembership(
  metadata: string | null | undefined,
): { product: PlanTerms; recurring: Recurring } | null {
  const membership = metadataObject(metadata, 'membership');
  if (!membership) return null;
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  return {
    product: {
      name: text(membership.name) ?? 'Professional status',
      credits: number(membership.credits),
      price: number(membership.price),
      currency: text(membership.currency) ?? 'usd',
      interval: text(membership.interval),
      professional: membership.professional === true,
    },
    recurring: recurringOf(membership),
  };
}
