// Creating a Stripe Checkout session for a catalogue price: hosted (a Stripe page the browser is
// sent to) or `elements` (the Payment Element on /signup/checkout). Our payment_sessions row comes
// first; its id makes the Idempotency-Key and rides in the metadata, so a retry gets Stripe's
// first session and the webhook finds what was sold.
import type Stripe from 'stripe';
import {
  type PaymentSessionRow,
  setPaymentSessionStripeId,
} from '../../db/repositories/payment-sessions.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import type { Services } from '../../services.ts';
import type { CatalogProduct } from './catalog.ts';
import { type Discount, discountRefusal } from './discounts.ts';
import { type StripeClient, stripeFailure } from './stripe-client.ts';
import { AUTOMATIC_TAX, taxed } from './tax.ts';

export type CheckoutPage =
  | { kind: 'hosted'; successUrl: string; cancelUrl: string }
  | { kind: 'elements'; returnUrl: string };

export interface CheckoutInput {
  user: UserRow;
  customer: string;
  product: CatalogProduct;
  row: PaymentSessionRow;
  discount: Discount | null;
  page: CheckoutPage;
}

export const checkoutKey = (user: UserRow, row: PaymentSessionRow) => `checkout-session:${user.key}:${row.id}`;

export function checkoutParams(input: CheckoutInput): Stripe.Checkout.SessionCreateParams {
  const { user, product, row, page } = input;
  const metadata = { user_key: user.key, payment_session: String(row.id) };
  const subscription = product.type === ACCOUNT_TYPE.RECURRING;
  return {
    mode: subscription ? 'subscription' : 'payment',
    customer: input.customer,
    client_reference_id: user.key,
    line_items: [{ price: product.stripePriceId, quantity: row.quantity }],
    // A price sold in several currencies is charged in the one the user was shown (currency.ts).
    ...(Object.keys(product.amounts).length > 1 ? { currency: product.currency } : {}),
    metadata,
    ...(subscription
      ? { subscription_data: { metadata } }
      : { invoice_creation: { enabled: true, invoice_data: { metadata } } }),
    ...(input.discount
      ? { discounts: [input.discount] }
      : page.kind === 'hosted'
        ? { allow_promotion_codes: true }
        : {}),
    ...(page.kind === 'hosted' && taxed(product) ? AUTOMATIC_TAX : {}),
    ...(page.kind === 'hosted'
      ? { success_url: page.successUrl, cancel_url: page.cancelUrl }
      : { ui_mode: 'elements', return_url: page.returnUrl }),
  };
}

export async function createCheckout(
  services: Services,
  stripe: StripeClient,
  input: CheckoutInput,
): Promise<Stripe.Checkout.Session> {
  try {
    const session = await stripe.checkout.sessions.create(checkoutParams(input), {
      idempotencyKey: checkoutKey(input.user, input.row),
    });
    await setPaymentSessionStripeId(services.db, input.row.id, session.id);
    return session;
  } catch (error) {
    throw (
      discountRefusal(services, error, input.discount) ?? stripeFailure(services, error, 'creating a checkout session')
    );
  }
}
