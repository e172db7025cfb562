// Card payments (SPEC §7 accountInvoice, accountPaymentSession, accountSignupPaymentSession,
// accountUpgrade; issue 14): thin resolvers over modules/billing.
import type { CatalogProduct } from '../modules/billing/catalog.ts';
import { localCatalog } from '../modules/billing/currency.ts';
import { getInvoice } from '../modules/billing/invoice.ts';
import { createPaymentSession, PAYMENT_OWNER_ONLY } from '../modules/billing/payment-session.ts';
import { createSignupPaymentSession, type SignupSession } from '../modules/billing/signup-session.ts';
import { applyForProfessional, UPGRADE_OWNER_ONLY } from '../modules/billing/upgrade.ts';
import { builder } from './builder.ts';
import { requireOwner, requireViewer } from './guards.ts';

const ProductRef = builder.objectRef<CatalogProduct>('Product').implement({
  description: 'A Stripe price on sale: a credit pack (type 1), a plan (type 3) or professional status.',
  fields: (t) => ({
    stripePriceId: t.exposeString('stripePriceId'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    credits: t.exposeInt('credits', { description: 'per purchase, or per period for a plan' }),
    price: t.exposeInt('price', { description: 'cents' }),
    currency: t.exposeString('currency'),
    type: t.exposeInt('type', { description: 'BASE 1 one-time, RECURRING 3 a plan' }),
    interval: t.exposeString('interval', { nullable: true }),
    professional: t.exposeBoolean('professional', { description: 'buys professional status' }),
  }),
});

const PaymentSessionRef = builder.objectRef<{ url: string }>('PaymentSession').implement({
  description: 'SPEC §3 Payment session: where to send the browser (Stripe Checkout or billing portal).',
  fields: (t) => ({ url: t.exposeString('url') }),
});

const SignupPaymentSessionRef = builder.objectRef<SignupSession>('SignupPaymentSession').implement({
  description: "SPEC §3 Payment session for sign-up: the client secret for Stripe's Payment Element.",
  fields: (t) => ({
    clientSecret: t.exposeString('clientSecret'),
    total: t.exposeInt('total', { description: 'cents, after the discount' }),
    currency: t.exposeString('currency', { description: "Stripe's currency code of total (usd)" }),
    description: t.exposeString('description'),
    publishableKey: t.exposeString('publishableKey', {
      nullable: true,
      description: 'STRIPE_PUBLISHABLE_KEY, to load Stripe.js; null when the server has none',
    }),
  }),
});

const InvoiceRef = builder.objectRef<{ id: string; invoicePdf: string }>('Invoice').implement({
  description: 'SPEC §3 Invoice.',
  fields: (t) => ({ id: t.exposeString('id'), invoicePdf: t.exposeString('invoicePdf') }),
});

builder.queryFields((t) => ({
  accountProducts: t.field({
    type: [ProductRef],
    description:
      'What is on sale: the active Stripe prices with metadata.credits or metadata.professional (cached 5 minutes); [] without card payments.',
    resolve: (_root, _args, ctx) => localCatalog(ctx.services, requireViewer(ctx), ctx.acceptLanguage),
  }),
  accountPaymentSession: t.field({
    type: PaymentSessionRef,
    description:
      'With stripePriceId: a Stripe Checkout session for that price (payment for a pack, subscription for a plan). Without: the Stripe billing portal (Manage billing). An error says so when card payments are not configured.',
    args: {
      stripePriceId: t.arg.string(),
      quantity: t.arg.int({ description: 'default 1' }),
      coupon: t.arg.string({ description: 'a Stripe coupon id (the ?coupon= of the page)' }),
    },
    // Checkout and the billing portal are the user's own: never a personal API token's, nor an
    // administrator's acting as them (a card, a plan or its cancellation in the user's name).
    resolve: (_root, args, ctx) =>
      createPaymentSession(ctx.services, requireOwner(ctx, PAYMENT_OWNER_ONLY), args, ctx.acceptLanguage),
  }),
  accountSignupPaymentSession: t.field({
    type: SignupPaymentSessionRef,
    description:
      'After sign-up with a price (no sign-in yet): a Checkout session for the card form. The promotion codes given at sign-up (or promotionCode), or coupon, are its discount; an unknown or expired one is refused with a message naming it. successUrl (our own origin only) is where Stripe returns; cancelUrl is accepted and not sent (the embedded form has no cancel step).',
    args: {
      email: t.arg.string({ required: true }),
      stripePriceId: t.arg.string({ required: true }),
      successUrl: t.arg.string(),
      cancelUrl: t.arg.string(),
      coupon: t.arg.string({ description: 'a Stripe coupon id (?coupon=); wins over promotion codes' }),
      promotionCode: t.arg.string({
        description: "codes joined by commas instead of those given at sign-up; '' for none",
      }),
    },
    resolve: (_root, args, ctx) => createSignupPaymentSession(ctx, args),
  }),
  accountInvoice: t.field({
    type: InvoiceRef,
    description: "One of the caller's invoices with the link to its PDF.",
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, ctx) => getInvoice(ctx.services, requireViewer(ctx), id),
  }),
}));

builder.mutationField('accountUpgrade', (t) =>
  t.boolean({
    description:
      'Applies for professional status (SPEC §2 Professional application); true when stored. Status comes when its payment completes (Stripe webhook). FORBIDDEN to a personal API token and in admin proxy mode (its answers are a legal statement of the user).',
    args: { metadata: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, { metadata }, ctx) =>
      applyForProfessional(ctx.services, requireOwner(ctx, UPGRADE_OWNER_ONLY), metadata),
  }),
);
