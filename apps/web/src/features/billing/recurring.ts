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
  paymentFailed: { invoiceId: string; url: string | null } | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

export function parseRecurring(metadata: string | null | undefined): Recurring {
  let recurring: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(metadata ?? '{}') as { recurring?: unknown };
    if (parsed.recurring && typeof parsed.recurring === 'object')
      recurring = parsed.recurring as Record<string, unknown>;
  } catch {
    // A metadata the server did not write: no plan details.
  }
  const failed = recurring.paymentFailed as Record<string, unknown> | undefined;
  return {
    subscriptionId: text(recurring.subscriptionId),
    status: text(recurring.status),
    cancelAt: typeof recurring.cancelAt === 'number' ? recurring.cancelAt : null,
    periodEnd: typeof recurring.periodEnd === 'number' ? recurring.periodEnd : null,
    trialEnd: typeof recurring.trialEnd === 'number' ? recurring.trialEnd : null,
    paymentFailed:
      failed && typeof failed === 'object' ? { invoiceId: text(failed.invoiceId) ?? '', url: text(failed.url) } : null,
  };
}
