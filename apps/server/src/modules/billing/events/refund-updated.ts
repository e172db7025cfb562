// charge.refund.updated, refund.updated and refund.failed: a refund of a pack's payment changed
// status; one that failed (or was canceled) after its credits were taken back gives them back
// (reversal.ts), once whichever of the three arrives first or twice. A failed refund of a payment
// for professional status that an administrator's removal refused (refused-professional.ts)
// leaves the user with neither the status nor the money: the operator is warned, once, to give
// it back by other means.
import type Stripe from 'stripe';
import { REFUSED_PROFESSIONAL_REASON } from '../refused-professional.ts';
import { purchaseOfCharge, reversalEffect } from './reversal.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

export const refundUpdated: EventHandler = async (ctx, object) => {
  const refund = object as Stripe.Refund;
  const chargeId = idOf(refund.charge);
  if (!chargeId) return unmatched;
  const charge = await ctx.stripe.charges.retrieve(chargeId);
  const payment = await purchaseOfCharge(ctx, charge);
  if (!payment) return unmatched;
  const effect = reversalEffect(ctx, payment, charge);
  const lost =
    (refund.status === 'failed' || refund.status === 'canceled') &&
    refund.metadata?.reason === REFUSED_PROFESSIONAL_REASON;
  if (!lost || !('apply' in effect)) return effect;
  return {
    ...effect,
    apply: async (tx) => {
      const outcome = await effect.apply(tx);
      // 'applied' once: the first of the refund's events restores what it had given back.
      if (outcome === 'applied') {
        ctx.services.log.warn(
          {
            refund: refund.id,
            charge: chargeId,
            paymentIntent: idOf(refund.payment_intent),
            purchase: refund.metadata?.purchase ?? null,
            userId: payment.userId,
            reason: refund.failure_reason ?? refund.status,
          },
          'stripe refund of a payment for professional status refused by its removal failed: the user has neither; give the money back by other means',
        );
      }
      return outcome;
    },
  };
};
