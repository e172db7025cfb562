// charge.dispute.created, .updated, .funds_withdrawn, .closed: a dispute (chargeback) of a
// payment. While it is open the card's bank holds the money: the pack's unspent credits (a plan's period credits) are
// held, taken as for a refund of the disputed amount (reversal.ts), so they are not spent meanwhile.
// Lost, they stay taken (the same ledger entry: once); won, they are given back, once. The
// disputes are read from Stripe as it holds them now, so either event, twice or in either order,
// leaves the books as the dispute stands. An inquiry (warning_*) moves no money: nothing is held;
// escalated by the bank to a chargeback (the same dispute, needs_response: charge.dispute.updated
// and funds_withdrawn), it holds them from then.
import type Stripe from 'stripe';
import { purchaseOfCharge, reversalEffect } from './reversal.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

export const chargeDispute: EventHandler = async (ctx, object) => {
  const dispute = object as Stripe.Dispute;
  const chargeId = idOf(dispute.charge);
  if (!chargeId) return unmatched;
  if (dispute.status.startsWith('warning_')) return { userId: null, outcome: 'ignored' };
  const charge = await ctx.stripe.charges.retrieve(chargeId);
  const payment = await purchaseOfCharge(ctx, charge);
  if (!payment) return unmatched;
  return reversalEffect(ctx, payment, charge);
};
