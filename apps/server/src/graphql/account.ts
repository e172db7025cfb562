// SPEC §7 `account`: signals left and the credit plan of the caller; `accountLedger`: its credit ledger.
import {
  type AccountProductView,
  type AccountView,
  getAccount,
  type PaymentDisputeView,
  type PaymentView,
} from '../modules/accounts/get-account.ts';
import { type LedgerEntryView, listLedgerEntries } from '../modules/accounts/ledger.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

const AccountProductRef = builder.objectRef<AccountProductView>('AccountProduct').implement({
  description: 'SPEC §3 Account.product: the subscribed plan.',
  fields: (t) => ({
    type: t.exposeInt('type', { description: 'BASE 1, RECURRING 3' }),
    name: t.exposeString('name'),
    credits: t.exposeInt('credits'),
    price: t.exposeInt('price', {
      description: 'cents per period, as the user pays it: less the discounts kept on the subscription',
    }),
    currency: t.exposeString('currency', { description: "Stripe's currency code of price (usd)" }),
    interval: t.exposeString('interval', {
      nullable: true,
      description: "billing interval: month, year, or a count of them ('3 months')",
    }),
    professional: t.exposeBoolean('professional', {
      nullable: true,
      description: 'the plan sells professional status (the user may no longer hold it: removed, or given back)',
    }),
  }),
});

const PaymentDisputeRef = builder.objectRef<PaymentDisputeView>('PaymentDispute').implement({
  description: "A dispute (chargeback) of a payment by the card's bank, as Stripe holds it now.",
  fields: (t) => ({
    status: t.exposeString('status', {
      description: "open (under review: the bank holds the money, the payment's credits are held), won or lost",
    }),
    amount: t.exposeInt('amount', { description: 'cents disputed (counted in refunded while open or lost)' }),
  }),
});

const PaymentRef = builder.objectRef<PaymentView>('Payment').implement({
  description: 'SPEC §3 Payment entry: a card payment recorded from Stripe.',
  fields: (t) => ({
    credits: t.exposeInt('credits'),
    price: t.exposeInt('price', { description: 'cents paid' }),
    currency: t.exposeString('currency'),
    createdAt: t.exposeFloat('createdAt', { description: 'milliseconds since the epoch' }),
    stripeInvoiceId: t.exposeString('stripeInvoiceId', { nullable: true, description: 'for accountInvoice' }),
    description: t.exposeString('description'),
    interval: t.exposeString('interval', {
      nullable: true,
      description: "a plan payment's billing interval (shown 'per month'); null for a one-time purchase",
    }),
    refunded: t.exposeInt('refunded', {
      description: 'cents given back since (Stripe refunds, disputes open or lost); 0 when none',
    }),
    dispute: t.field({
      type: PaymentDisputeRef,
      nullable: true,
      description: "the card bank's dispute of this payment; null when none (an inquiry is none)",
      resolve: (payment) => payment.dispute,
    }),
  }),
});

const AccountRef = builder.objectRef<AccountView>('Account').implement({
  description: 'SPEC §3 Account: signal credits.',
  fields: (t) => ({
    type: t.exposeInt('type', { description: 'BASE 1, RECURRING 3' }),
    balance: t.exposeInt('balance', { description: 'signals left' }),
    credits: t.exposeInt('credits', { description: 'one-time credits left (they never expire)' }),
    recurringCredits: t.exposeInt('recurringCredits', {
      description: "the period's plan credits left, spent before credits",
    }),
    recurringPeriodCredits: t.exposeInt('recurringPeriodCredits', { description: "the plan's credits per period" }),
    recurringPeriodEnd: t.exposeFloat('recurringPeriodEnd', { nullable: true, description: 'seconds since the epoch' }),
    metadata: t.string({
      description:
        'JSON: {creditsTotal, recurring: {subscriptionId, status, cancelAt (seconds), paymentFailed?}, membership? (a plan for professional status alone beside the credits plan: its product fields and recurring state), payments: [Payment]}',
      resolve: (account) => JSON.stringify(account.metadata),
    }),
    product: t.field({ type: AccountProductRef, nullable: true, resolve: (account) => account.product }),
    payments: t.field({
      type: [PaymentRef],
      description: 'recent payments, newest first (also in metadata.payments)',
      resolve: (account) => account.payments,
    }),
    signalsSpent: t.exposeInt('signalsSpent', { description: 'live signals that kept their credit, in total' }),
    lastGrant: t.exposeInt('lastGrant', {
      nullable: true,
      description:
        'credits of the latest grant (sign-up, purchase, period, reward, referral); low credits: ≤ 20 % of it',
    }),
    unlimited: t.exposeBoolean('unlimited', { description: 'SIGNAL_CREDITS=unlimited: signals are not metered' }),
    cardPayments: t.exposeBoolean('cardPayments', { description: 'this server takes card payments (Stripe)' }),
    professionalAppliedAt: t.exposeFloat('professionalAppliedAt', {
      nullable: true,
      description:
        'when the caller last sent their application for professional status (accountUpgrade), milliseconds since the epoch; null when never',
    }),
  }),
});

const LedgerEntryRef = builder.objectRef<LedgerEntryView>('LedgerEntry').implement({
  description: 'One change of signal credits.',
  fields: (t) => ({
    id: t.exposeFloat('id'),
    createdAt: t.exposeFloat('createdAt', { description: 'milliseconds since the epoch' }),
    credits: t.exposeInt('credits', { description: 'signed: added (grant, refund) or taken (signal, lapse)' }),
    cause: t.exposeString('cause', {
      description:
        'signup, purchase, period, reward, referral, signal, refund, lapse, opening, adjustment, reversal (a purchase refunded) or restore (its refund failed: the credits back)',
    }),
    balanceAfter: t.exposeInt('balanceAfter'),
    dispute: t.exposeBoolean('dispute', {
      nullable: true,
      description:
        "true: a reversal or restore of a dispute by the card's bank (credits taken back while it is open or lost; back when won), not of a refund",
    }),
    note: t.exposeString('note', {
      nullable: true,
      description:
        'what the cause does not say, e.g. credits a refund could not give back (lapsed with their plan period)',
    }),
  }),
});

builder.queryField('account', (t) =>
  t.field({
    type: AccountRef,
    description: "The caller's signal-credit account.",
    resolve: (_root, _args, ctx) => getAccount(ctx.services, requireViewer(ctx).userId),
  }),
);

builder.queryField('accountLedger', (t) =>
  t.field({
    type: [LedgerEntryRef],
    description:
      "The caller's credit ledger, newest first. Paging like actions: pass the createdAt of the last shown entry as createdAtFrom to get strictly older ones; a page never ends inside a millisecond, so it may exceed limit.",
    args: {
      limit: t.arg.int({ description: 'default 20, at most 100' }),
      createdAtFrom: t.arg.float(),
    },
    resolve: (_root, args, ctx) => listLedgerEntries(ctx.services, requireViewer(ctx).userId, args),
  }),
);
