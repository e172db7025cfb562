// invoice.paid. A plan's invoice starts the period it paid for: credits = the plan's
// metadata.credits × quantity, the period end from the invoice's lines (else the subscription
// items' current_period_end), once per invoice; one for the rest of a period after a plan change
// (billing_reason subscription_update) moves the credits left by the difference (credits.ts); any
// other invoice on the subscription (an operator's one-off, billing_reason manual…) is recorded
// as a payment and grants nothing (plan.ts paysPlanPeriod). A
// one-time invoice is one Checkout made for a pack: the session grants; here the payment learns
// its invoice id (for the PDF).
import type Stripe from 'stripe';
import { setPaymentInvoice } from '../../../db/repositories/payments.repository.ts';
import {
  applyPlanPayment,
  invoiceDescription,
  invoicePeriodEnd,
  paysPlanPeriod,
  subscriptionOfInvoice,
} from '../plan.ts';
import { paymentSessionOf, userOf } from './event-user.ts';
import { refundedBeforeBooking, refundedChargeOfInvoice, reverseEarlierRefunds } from './reversal.ts';
import { currentSubscription, latestSubscription, subscriptionKeys } from './subscription.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

export const invoicePaid: EventHandler = async (ctx, object) => {
  const invoice = object as Stripe.Invoice;
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (!subscriptionId) {
    const row = await paymentSessionOf(ctx.services, null, invoice.metadata);
    const sessionId = row?.stripeId;
    if (!row || !sessionId || !invoice.id) return unmatched;
    const invoiceId = invoice.id;
    return {
      userId: row.userId,
      apply: async (tx) => {
        await setPaymentInvoice(tx, sessionId, invoiceId);
        return 'applied';
      },
    };
  }
  const subscription = await currentSubscription(ctx, subscriptionId);
  if (!subscription || !invoice.id) return unmatched;
  const userId = await userOf(ctx.services, {
    userKeys: [...subscriptionKeys(subscription), invoice.parent?.subscription_details?.metadata?.user_key],
    customer: idOf(invoice.customer) ?? idOf(subscription.customer),
  });
  if (userId === null) return unmatched;
  const payment = {
    invoiceId: invoice.id,
    amount: invoice.amount_paid,
    currency: invoice.currency,
    periodEnd: invoicePeriodEnd(invoice),
    change: invoice.billing_reason === 'subscription_update',
    first: invoice.billing_reason === 'subscription_create',
    period: paysPlanPeriod(invoice),
    description: invoiceDescription(invoice) ?? undefined,
  };
  return {
    userId,
    apply: async (tx) => {
      const refunded = await refundedBeforeBooking(tx, payment.invoiceId, () =>
        refundedChargeOfInvoice(ctx, payment.invoiceId),
      );
      const changed = await applyPlanPayment(
        ctx.stripe,
        tx,
        userId,
        await latestSubscription(ctx, subscription),
        payment,
      );
      await reverseEarlierRefunds(ctx, tx, payment.invoiceId, refunded);
      return changed ? 'applied' : 'unchanged';
    },
  };
};
