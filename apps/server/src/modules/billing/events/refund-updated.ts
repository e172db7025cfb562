// charge.refund.updated, refund.updated and refund.failed: a refund of a pack's payment changed
// status; one that failed (or was canceled) after its credits were taken back gives them back
// (reversal.ts), once whichever of the three arrives first or twice.
import type Stripe from 'stripe';
import { purchaseOfCharge, reversalEffect } from './reversal.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

export const refundUpdated: EventHandler = async (ctx, object) => {
  const refund = object as Stripe.Refund;
  const chargeId = idOf(refund.charge);
  if (!chargeId) return unmatched;
  const charge = await ctx.stripe.charges.retrieve(chargeId);
  const payment = await purchaseOfCharge(ctx, charge);
  if (!payment) return unmatched;
  return reversalEffect(ctx, payment, charge);
};
