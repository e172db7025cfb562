// charge.refunded: a pack's payment refunded, in full or in part (once per refund; Stripe sends
// the charge, with amount_refunded in total): its credits are taken back in proportion
// (reversal.ts) and the payment entry shows the cents refunded.
import type Stripe from 'stripe';
import { purchaseOfCharge, reversalEffect } from './reversal.ts';
import { type EventHandler, unmatched } from './types.ts';

export const chargeRefunded: EventHandler = async (ctx, object) => {
  const charge = object as Stripe.Charge;
  const payment = await purchaseOfCharge(ctx, charge);
  if (!payment) return unmatched;
  return reversalEffect(ctx, payment, charge);
};
