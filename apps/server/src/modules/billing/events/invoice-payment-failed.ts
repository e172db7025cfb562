// invoice.payment_failed: a plan's renewal could not be charged. No credits change (the period
// was not paid); Account & Billing shows the failure with Stripe's page to pay the invoice, until
// the plan is active again. Stripe retries the charge itself (Smart Retries). A failure delivered
// after the plan was paid again (Stripe keeps no order) is stale: the subscription as Stripe
// holds it now decides, as projectPlan does, and so does the invoice as Stripe holds it now (the
// attempts' events come in any order: the last one's retry date, or none, is what stands).
// invoice.marked_uncollectible: Stripe stopped retrying (no next attempt); the invoice can still
// be paid on its page, so the failure stays, told without a retry date. invoice.voided: nothing
// is owed on it any more: its failure (and the link to pay it) goes, whichever event came first.
import type Stripe from 'stripe';
import { clearPaymentFailed, mergeRecurring } from '../../../db/repositories/billing-account.repository.ts';
import { subscriptionOfInvoice } from '../plan.ts';
import { userOf } from './event-user.ts';
import { currentSubscription } from './subscription.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

export const invoicePaymentFailed: EventHandler = async (ctx, object) => {
  const invoice = object as Stripe.Invoice;
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (!subscriptionId || !invoice.id) return unmatched;
  const userId = await userOf(ctx.services, {
    userKeys: [invoice.parent?.subscription_details?.metadata?.user_key],
    customer: idOf(invoice.customer),
  });
  if (userId === null) return unmatched;
  const invoiceId = invoice.id;
  return {
    userId,
    apply: async (tx) => {
      // The invoice as Stripe holds it now, not as this event saw it: an earlier attempt's failure
      // delivered after a later one's must not bring back a retry date Stripe has given up on.
      const current = await ctx.stripe.invoices.retrieve(invoiceId);
      if (current.status === 'void') return (await clearPaymentFailed(tx, userId, invoiceId)) ? 'applied' : 'unchanged';
      if (current.status === 'paid') return 'unchanged';
      // Read under the user's lock: a renewal paid meanwhile is seen here.
      const subscription = await currentSubscription(ctx, subscriptionId);
      if (subscription && (subscription.status === 'active' || subscription.status === 'trialing')) return 'unchanged';
      const failed = {
        invoiceId,
        at: current.created,
        amount: current.amount_due,
        url: current.hosted_invoice_url ?? null,
        nextAttempt: current.next_payment_attempt ?? null,
      };
      return (await mergeRecurring(tx, userId, subscriptionId, { paymentFailed: failed })) ? 'applied' : 'unchanged';
    },
  };
};
