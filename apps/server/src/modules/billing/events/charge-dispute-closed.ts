// charge.dispute.closed: a dispute (chargeback) of a pack's payment. Lost, the money went back to
// the card: the pack's credits are taken back as for a refund of the disputed amount
// (reversal.ts). Won or closed as a warning: nothing changes.
import type Stripe from 'stripe';
import { purchaseOfCharge, reversalEffect } from './reversal.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

export const chargeDisputeClosed: EventHandler = async (ctx, object) => {
  const dispute = object as Stripe.Dispute;
  const chargeId = idOf(dispute.charge);
  if (!chargeId) return unmatched;
  if (dispute.status !== 'lost') return { userId: null, outcome: 'ignored' };
  const charge = await ctx.stripe.charges.retrieve(chargeId);
  const payment = await purchaseOfCharge(ctx, charge);
  if (!payment) return unmatched;
  return reversalEffect(ctx, payment, charge, { id: dispute.id, amount: dispute.amount, created: dispute.created });
};
