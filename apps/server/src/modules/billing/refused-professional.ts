// A payment for professional status made before an administrator removed the status, whose event
// arrived after the removal (professional-removal.ts, admin/professional.ts): the purchase gives
// the status no more (plan.ts grantProfessional), so the user would have paid for nothing. The
// removal holds (ARCHITECTURE.md, Professional status); the money goes back instead, once.
import { intentOfInvoice } from './invoice.ts';
import type { StripeClient } from './stripe-client.ts';

/** `metadata.reason` of such a refund: its failure is the operator's (events/refund-updated.ts). */
export const REFUSED_PROFESSIONAL_REASON = 'professional_status_removed';

/**
 * Gives back a payment for professional status that an administrator's removal refused: paid
 * before the removal, its event arrived after it, so the purchase gives the status no more
 * (plan.ts grantProfessional) and the user would have paid for nothing. The whole charge goes
 * back, once: the Idempotency-Key is the purchase's (`professional-refund:<session id>`), so a
 * transaction that failed after the refund and is retried gets Stripe's first refund, and a charge
 * given back in full already (a retry after Stripe forgot the key), or disputed, is left alone. Its
 * charge.refunded then takes back what the purchase granted with it, as for any refund.
 */
export async function refundRefusedProfessional(
  stripe: StripeClient,
  intentId: string | null,
  reference: string,
): Promise<void> {
  if (!intentId) return;
  const chargeId = (await stripe.paymentIntents.retrieve(intentId)).latest_charge;
  const charge = chargeId ? await stripe.charges.retrieve(typeof chargeId === 'string' ? chargeId : chargeId.id) : null;
  // Disputed: the dispute decides where the money goes (Stripe refuses to refund a disputed charge).
  if (!charge || charge.disputed || charge.amount_refunded >= charge.amount) return;
  await stripe.refunds.create(
    { payment_intent: intentId, metadata: { reason: REFUSED_PROFESSIONAL_REASON, purchase: reference } },
    { idempotencyKey: `professional-refund:${reference}` },
  );
}

/**
 * The same for the first invoice of a plan that sells the status (refundRefusedProfessional, keyed
 * by the invoice), and the plan ends now: its period was given back, so nothing of it stays paid.
 */
export async function refundRefusedPlan(stripe: StripeClient, subscriptionId: string, invoiceId: string) {
  await refundRefusedProfessional(stripe, await intentOfInvoice(stripe, invoiceId), invoiceId);
  await stripe.subscriptions.cancel(subscriptionId);
}
