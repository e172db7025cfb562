// Invoices, subscriptions and payment intents as the fake makes them: copies of the fixtures with
// the fields of this purchase (ids, customer, amounts, periods, metadata, links to the fake).
import { randomBytes } from 'node:crypto';
import { fromFixture, type StripeObject } from './fixtures.ts';
import { type Line, unitAmount } from './money.ts';
import { now, type Store } from './store.ts';

/** A pending invoice item (POST /v1/invoiceitems) as it becomes a line: its own period (start = end unless given). */
export interface ItemLine {
  invoiceItem: string;
  amount: number;
  currency: string;
  description: string;
  period: { start: number; end: number };
}

export interface InvoiceInput {
  customer: string;
  lines: Line[];
  /** Invoice items instead of `lines` (an operator's one-off invoice, billing_reason manual). */
  items?: ItemLine[];
  /** With the tax in it (`tax`: Stripe Tax's, on an exclusive price). */
  amountDue: number;
  tax?: number;
  metadata: Record<string, string>;
  billingReason: string;
  subscription?: { id: string; itemId: string; metadata: Record<string, string>; start: number; end: number };
  paid: boolean;
}

function invoiceLine(invoiceId: string, line: Line, input: InvoiceInput): StripeObject {
  const amount = unitAmount(line.price) * line.quantity;
  const at = now();
  const sub = input.subscription;
  return {
    id: `il_${randomBytes(10).toString('hex')}`,
    object: 'line_item',
    amount,
    currency: String(line.price.currency),
    description: `${line.quantity} × ${String(line.price.nickname ?? 'item')}`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    period: { start: sub?.start ?? at, end: sub?.end ?? at },
    quantity: line.quantity,
    subscription: null,
    pretax_credit_amounts: null,
    taxes: [],
    parent: sub
      ? {
          type: 'subscription_item_details',
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: false,
            proration_details: { credited_items: null },
            subscription: sub.id,
            subscription_item: sub.itemId,
          },
        }
      : {
          type: 'invoice_item_details',
          invoice_item_details: {
            invoice_item: `ii_${randomBytes(10).toString('hex')}`,
            proration: false,
            proration_details: { credited_items: null },
            subscription: null,
          },
          subscription_item_details: null,
        },
    pricing: {
      type: 'price_details',
      price_details: { price: line.price.id, product: String(line.price.product) },
      unit_amount_decimal: String(unitAmount(line.price)),
    },
    subtotal: amount,
    quantity_decimal: String(line.quantity),
  };
}

function itemLine(invoiceId: string, item: ItemLine, subscription: string | null): StripeObject {
  return {
    id: `il_${randomBytes(10).toString('hex')}`,
    object: 'line_item',
    amount: item.amount,
    currency: item.currency,
    description: item.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    period: item.period,
    quantity: 1,
    subscription: null,
    pretax_credit_amounts: null,
    taxes: [],
    parent: {
      type: 'invoice_item_details',
      invoice_item_details: {
        invoice_item: item.invoiceItem,
        proration: false,
        proration_details: { credited_items: null },
        subscription,
      },
      subscription_item_details: null,
    },
    pricing: null,
    subtotal: item.amount,
    quantity_decimal: '1',
  };
}

/** An invoice's `total_taxes` entry (current API versions) for Stripe Tax's amount. */
const taxAmount = (amount: number, taxable: number) => ({
  amount,
  tax_behavior: 'exclusive',
  tax_rate_details: { tax_rate: 'txr_fake_standard' },
  taxability_reason: 'standard_rated',
  taxable_amount: taxable,
  type: 'tax_rate_details',
});

export function makeInvoice(store: Store, base: string, input: InvoiceInput): StripeObject {
  const id = store.newId('invoice');
  const at = now();
  const subtotal = input.items
    ? input.items.reduce((sum, item) => sum + item.amount, 0)
    : input.lines.reduce((sum, line) => sum + unitAmount(line.price) * line.quantity, 0);
  const lines = input.items
    ? input.items.map((item) => itemLine(id, item, input.subscription?.id ?? null))
    : input.lines.map((line) => invoiceLine(id, line, input));
  const sub = input.subscription;
  const tax = input.tax ?? 0;
  const invoice = store.put(
    fromFixture('invoice.paid', {
      id,
      customer: input.customer,
      amount_due: input.amountDue,
      amount_paid: input.paid ? input.amountDue : 0,
      amount_remaining: input.paid ? 0 : input.amountDue,
      amount_overpaid: 0,
      attempt_count: 1,
      attempted: true,
      billing_reason: input.billingReason,
      created: at,
      currency: String(input.items?.[0]?.currency ?? input.lines[0]?.price.currency ?? 'usd'),
      due_date: null,
      effective_at: at,
      from_invoice: null,
      hosted_invoice_url: `${base}/i/${id}`,
      invoice_pdf: `${base}/invoice/${id}/pdf`,
      last_finalization_error: null,
      lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
      metadata: input.metadata,
      next_payment_attempt: input.paid ? null : at + 3 * 86_400,
      number: `FAKE-${String(store.all('invoice').length + 1).padStart(4, '0')}`,
      parent: sub
        ? {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: { metadata: sub.metadata, subscription: sub.id },
          }
        : null,
      period_end: at,
      period_start: at,
      shipping_cost: null,
      status: input.paid ? 'paid' : 'open',
      status_transitions: {
        finalized_at: at,
        marked_uncollectible_at: null,
        paid_at: input.paid ? at : null,
        voided_at: null,
      },
      subtotal,
      subtotal_excluding_tax: subtotal,
      total: input.amountDue,
      total_excluding_tax: input.amountDue - tax,
      total_taxes: tax > 0 ? [taxAmount(tax, input.amountDue - tax)] : [],
      automatic_tax: {
        enabled: input.tax !== undefined,
        liability: { type: 'account' },
        status: input.tax === undefined ? null : 'complete',
        disabled_reason: null,
        provider: input.tax === undefined ? null : 'stripe',
      },
      total_discount_amounts:
        subtotal > input.amountDue - tax ? [{ amount: subtotal - input.amountDue + tax, discount: 'di_fake' }] : [],
      webhooks_delivered_at: null,
    }),
  );
  if (sub && input.paid) chargeInvoice(store, invoice);
  return invoice;
}

/**
 * A subscription's invoice paid by card: its payment intent and charge (what a refund or dispute
 * names), linked to the invoice by an InvoicePayment (current API versions: neither the charge nor
 * the intent names the invoice; GET /v1/invoice_payments?payment[payment_intent]= finds it).
 */
export function chargeInvoice(store: Store, invoice: StripeObject): void {
  const amount = Number(invoice.amount_due);
  if (amount <= 0) return;
  const at = now();
  const intent = makePaymentIntent(store, String(invoice.customer), amount, {}, String(invoice.currency));
  store.put({
    id: store.newId('invoice_payment'),
    object: 'invoice_payment',
    amount_paid: amount,
    amount_requested: amount,
    created: at,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intent.id },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: at },
  });
}

export function makeSubscription(
  store: Store,
  input: { customer: string; line: Line; metadata: Record<string, string>; start: number; end: number },
): StripeObject {
  const id = store.newId('subscription');
  const template = (fromFixture('subscription', {}).items as { data: Record<string, unknown>[] }).data[0] ?? {};
  const item = {
    ...template,
    id: store.newId('subscription_item'),
    created: input.start,
    // The price as Stripe has it (its own currency and amount); the subscription's currency is
    // the one it is charged in.
    price: structuredClone(store.get('price', input.line.price.id)),
    plan: null,
    quantity: input.line.quantity,
    subscription: id,
    current_period_start: input.start,
    current_period_end: input.end,
  };
  return store.put(
    fromFixture('subscription', {
      id,
      customer: input.customer,
      status: 'active',
      billing_cycle_anchor: input.start,
      billing_cycle_anchor_config: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      created: input.start,
      start_date: input.start,
      currency: String(input.line.price.currency),
      ended_at: null,
      items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
      metadata: input.metadata,
      next_pending_invoice_item_invoice: null,
      pending_invoice_item_interval: null,
      pending_update: null,
      pause_collection: null,
      transfer_data: null,
      billing_schedules: [],
    }),
  );
}

/**
 * The charge of a paid payment intent. fixtures.json has no Charge (nor Refund, Dispute): these
 * are constructed with the fields of Stripe's API reference (the `stripe` package's types) that
 * a refund or dispute touches; `refunds` is left out, as current API versions do unless expanded.
 */
export function makeCharge(
  store: Store,
  input: { intent: string; customer: string; amount: number; currency: string },
) {
  return store.put({
    id: store.newId('charge'),
    object: 'charge',
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: 0,
    balance_transaction: `txn_${randomBytes(12).toString('hex')}`,
    captured: true,
    created: now(),
    currency: input.currency,
    customer: input.customer,
    description: null,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: input.intent,
    payment_method: 'pm_1Q0PsIJvEtkwdCNYMSaVuRz6',
    receipt_url: null,
    refunded: false,
    status: 'succeeded',
  });
}

export function makeRefund(
  store: Store,
  charge: StripeObject,
  amount: number,
  reason: string | null,
  metadata: Record<string, string> = {},
): StripeObject {
  return store.put({
    id: store.newId('refund'),
    object: 'refund',
    amount,
    balance_transaction: `txn_${randomBytes(12).toString('hex')}`,
    charge: charge.id,
    created: now(),
    currency: charge.currency,
    destination_details: {
      type: 'card',
      card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
    },
    metadata,
    payment_intent: charge.payment_intent,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  });
}

export function makeDispute(store: Store, charge: StripeObject, amount: number, status: string): StripeObject {
  return store.put({
    id: store.newId('dispute'),
    object: 'dispute',
    amount,
    balance_transactions: [],
    charge: charge.id,
    created: now(),
    currency: charge.currency,
    evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: 'fraudulent',
    status,
  });
}

export function makePaymentIntent(
  store: Store,
  customer: string,
  amount: number,
  metadata: Record<string, string>,
  currency = 'usd',
) {
  const id = store.newId('payment_intent');
  const charge = makeCharge(store, { intent: id, customer, amount, currency });
  return store.put(
    fromFixture('payment_intent.succeeded', {
      id,
      amount,
      amount_received: amount,
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      created: now(),
      customer,
      currency,
      latest_charge: charge.id,
      metadata,
      transfer_data: null,
    }),
  );
}
