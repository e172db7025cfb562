// The Stripe events we act on (the webhook answers 200 to any other type and changes nothing).
import { chargeDispute } from './charge-dispute.ts';
import { chargeRefunded } from './charge-refunded.ts';
import { checkoutSessionCompleted } from './checkout-session-completed.ts';
import { invoicePaid } from './invoice-paid.ts';
import { invoicePaymentFailed } from './invoice-payment-failed.ts';
import { refundUpdated } from './refund-updated.ts';
import { subscriptionChanged } from './subscription-changed.ts';
import type { EventHandler } from './types.ts';

export const EVENT_HANDLERS: Readonly<Record<string, EventHandler>> = {
  'checkout.session.completed': checkoutSessionCompleted,
  'checkout.session.async_payment_succeeded': checkoutSessionCompleted,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoicePaymentFailed,
  'invoice.marked_uncollectible': invoicePaymentFailed,
  'invoice.voided': invoicePaymentFailed,
  'customer.subscription.updated': subscriptionChanged,
  'customer.subscription.deleted': subscriptionChanged,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': chargeDispute,
  // An inquiry (charge.dispute.created, warning_*: nothing held) that the bank escalates to a
  // chargeback is the same dispute, now needs_response: Stripe tells it with these two.
  'charge.dispute.updated': chargeDispute,
  'charge.dispute.funds_withdrawn': chargeDispute,
  'charge.dispute.closed': chargeDispute,
  'charge.refund.updated': refundUpdated,
  'refund.updated': refundUpdated,
  'refund.failed': refundUpdated,
};
