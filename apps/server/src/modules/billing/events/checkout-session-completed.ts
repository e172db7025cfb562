// checkout.session.completed (and checkout.session.async_payment_succeeded): a paid Checkout
// session. A pack (mode payment) grants the price's metadata.credits × quantity, keyed by the
// session id; a plan (mode subscription) starts the period of its first invoice, keyed by the
// invoice id like invoice.paid, so whichever of the two comes first books it and the other finds
// it booked. Professional status is granted here, never on the success page.
import type Stripe from 'stripe';
import type { PaymentSessionRow } from '../../../db/repositories/payment-sessions.repository.ts';
import { recordPayment } from '../../../db/repositories/payments.repository.ts';
import { grantCredits } from '../../accounts/credits.ts';
import { creditsOf, describeProduct, isProfessionalPrice, listCatalog } from '../catalog.ts';
import { applyPlanPayment, grantProfessional, invoiceDescription, invoicePeriodEnd, paysPlanPeriod } from '../plan.ts';
import { refundRefusedProfessional } from '../refused-professional.ts';
import { paymentSessionOf, userOf } from './event-user.ts';
import {
  refundedBeforeBooking,
  refundedChargeOfIntent,
  refundedChargeOfInvoice,
  reverseEarlierRefunds,
} from './reversal.ts';
import { currentSubscription, latestSubscription } from './subscription.ts';
import { type Effect, type EventContext, type EventHandler, idOf, unmatched } from './types.ts';

interface Sold {
  credits: number;
  professional: boolean;
  description: string;
}

/**
 * What our row says was sold, described from the catalogue when the price is still on it (else,
 * or when the catalogue cannot be read now, from the row).
 */
async function soldByRow(ctx: EventContext, row: PaymentSessionRow): Promise<Sold> {
  const product = (await listCatalog(ctx.services).catch(() => [])).find((p) => p.stripePriceId === row.stripePriceId);
  return {
    credits: row.credits,
    professional: row.professional,
    // With the credits the row sold (what is granted), whatever the price carries by now.
    description: product
      ? describeProduct({ ...product, credits: row.credits / Math.max(row.quantity, 1) }, row.quantity)
      : row.professional
        ? 'Professional status'
        : `${row.credits} signal credits`,
  };
}

/** A session we have no row of: its line items as Stripe lists them. */
async function soldByLineItems(ctx: EventContext, sessionId: string): Promise<Sold> {
  const items = await ctx.stripe.checkout.sessions.listLineItems(sessionId, { limit: 100, expand: ['data.price'] });
  let credits = 0;
  let professional = false;
  for (const item of items.data) {
    credits += creditsOf(item.price?.metadata) * (item.quantity ?? 1);
    professional ||= isProfessionalPrice(item.price?.metadata);
  }
  return { credits, professional, description: items.data.map((i) => i.description).join(', ') || 'Purchase' };
}

async function subscriptionEffect(
  ctx: EventContext,
  session: Stripe.Checkout.Session,
  userId: number,
): Promise<Effect> {
  const subscriptionId = idOf(session.subscription);
  const subscription = subscriptionId ? await currentSubscription(ctx, subscriptionId) : null;
  if (!subscription) return { userId, outcome: 'ignored' };
  const invoiceId = idOf(session.invoice);
  // The period the first invoice paid for, as invoice.paid reads it: the subscription's current
  // period is a later one when the session arrives after a renewal.
  const invoice = invoiceId ? await ctx.stripe.invoices.retrieve(invoiceId) : null;
  return {
    userId,
    apply: async (tx) => {
      const refunded = invoiceId
        ? await refundedBeforeBooking(tx, invoiceId, () => refundedChargeOfInvoice(ctx, invoiceId))
        : null;
      const changed = await applyPlanPayment(
        ctx.stripe,
        tx,
        userId,
        await latestSubscription(ctx, subscription),
        invoiceId
          ? {
              invoiceId,
              amount: session.amount_total ?? 0,
              currency: session.currency ?? 'usd',
              periodEnd: invoice ? invoicePeriodEnd(invoice) : null,
              period: invoice ? paysPlanPeriod(invoice) : true,
              first: invoice ? invoice.billing_reason === 'subscription_create' : true,
              description: (invoice && invoiceDescription(invoice)) ?? undefined,
            }
          : null,
      );
      if (invoiceId) await reverseEarlierRefunds(ctx, tx, invoiceId, refunded);
      return changed ? 'applied' : 'unchanged';
    },
  };
}

export const checkoutSessionCompleted: EventHandler = async (ctx, object) => {
  const session = object as Stripe.Checkout.Session;
  if (session.payment_status === 'unpaid') return { userId: null, outcome: 'unpaid' };
  const row = await paymentSessionOf(ctx.services, session.id, session.metadata);
  const userId = await userOf(ctx.services, {
    row,
    userKeys: [session.metadata?.user_key, session.client_reference_id],
    customer: idOf(session.customer),
  });
  if (userId === null) return unmatched;
  if (session.mode === 'subscription') return subscriptionEffect(ctx, session, userId);
  if (session.mode !== 'payment') return { userId, outcome: 'ignored' };
  const sold = row ? await soldByRow(ctx, row) : await soldByLineItems(ctx, session.id);
  return {
    userId,
    apply: async (tx) => {
      const refunded = await refundedBeforeBooking(tx, session.id, () =>
        refundedChargeOfIntent(ctx, idOf(session.payment_intent)),
      );
      const granted = sold.credits > 0 ? await grantCredits(tx, userId, sold.credits, 'purchase', session.id) : null;
      const recorded = await recordPayment(tx, {
        userId,
        reference: session.id,
        stripeInvoiceId: idOf(session.invoice),
        credits: sold.credits,
        price: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
        description: sold.description,
        interval: null,
      });
      // Paid before an administrator removed the status and booked after: it gives nothing, so
      // its money goes back.
      if (
        recorded &&
        sold.professional &&
        !(await grantProfessional(tx, userId, row?.createdAt ?? new Date(session.created * 1000)))
      ) {
        await refundRefusedProfessional(ctx.stripe, idOf(session.payment_intent), session.id);
      }
      await reverseEarlierRefunds(ctx, tx, session.id, refunded);
      return granted || recorded ? 'applied' : 'unchanged';
    },
  };
};
