// Subscriptions over time in the fake: cancelled at the period's end or at once (what the billing
// portal does), changed within the period (its quantity, invoiced at once), renewed (a new
// period, its invoice paid) or failing to renew (past_due), each with the events Stripe sends for
// it; and an operator's one-off invoice on one (invoice items, an invoice with billing_reason
// manual, paid).
import { chargeInvoice, makeInvoice } from './billing-objects.ts';
import { InvalidRequest } from './checkout.ts';
import { renewalAmount } from './discounts.ts';
import type { StripeObject } from './fixtures.ts';
import { type Form, record, text } from './form.ts';
import { addInterval, exclusiveTax, type Line, localized } from './money.ts';
import { now, type Store } from './store.ts';
import type { FakeParts, Webhooks } from './webhooks.ts';

interface Item {
  id: string;
  price: StripeObject;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
}

const itemOf = (subscription: StripeObject) => (subscription.items as { data: Item[] }).data[0] as Item;

export class Subscriptions {
  private readonly store: Store;
  private readonly webhooks: Webhooks;
  private readonly base: () => string;

  constructor(parts: FakeParts) {
    ({ store: this.store, webhooks: this.webhooks, base: this.base } = parts);
  }

  /** cancel_at_period_end (the portal's "Cancel plan"): customer.subscription.updated. */
  cancelAtPeriodEnd(id: string, cancel = true): StripeObject {
    const subscription = this.store.get('subscription', id);
    const previous = {
      cancel_at: subscription.cancel_at,
      cancel_at_period_end: subscription.cancel_at_period_end,
      canceled_at: subscription.canceled_at,
    };
    Object.assign(subscription, {
      cancel_at_period_end: cancel,
      cancel_at: cancel ? itemOf(subscription).current_period_end : null,
      canceled_at: cancel ? now() : null,
      cancellation_details: { comment: null, feedback: null, reason: cancel ? 'cancellation_requested' : null },
    });
    this.webhooks.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  /** Ends it now (DELETE /v1/subscriptions/:id): customer.subscription.deleted. */
  cancelNow(id: string): StripeObject {
    const subscription = this.store.get('subscription', id);
    Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
    this.webhooks.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /**
   * A plan change within the period (the portal's "Update plan" with proration_behavior
   * always_invoice): the item's quantity changes now and an invoice for the rest of the period
   * (billing_reason subscription_update; nothing due on a downgrade, Stripe credits the customer's
   * balance) is paid at once: invoice.paid and customer.subscription.updated. Returns the invoice.
   * `billed: 'at renewal'`: the rest of the period is billed with the next renewal instead;
   * customer.subscription.updated only. Returns the subscription then.
   */
  changeQuantity(id: string, quantity: number, options: { billed?: 'now' | 'at renewal' } = {}): StripeObject {
    const subscription = this.store.get('subscription', id);
    const item = itemOf(subscription);
    const start = now();
    const end = item.current_period_end;
    const left = (end - start) / (end - item.current_period_start);
    const due = Math.max(0, Math.round(Number(item.price.unit_amount) * (quantity - item.quantity) * left));
    const previous = { items: structuredClone(subscription.items), latest_invoice: subscription.latest_invoice };
    item.quantity = quantity;
    if (options.billed === 'at renewal') {
      // proration_behavior create_prorations (the API's default): the rest of the period is a
      // pending invoice item, billed with the next renewal; only the subscription changes now.
      this.store.put({
        id: this.store.newId('invoiceitem'),
        object: 'invoiceitem',
        amount: due,
        currency: String(item.price.currency),
        customer: String(subscription.customer),
        date: start,
        description: `Remaining time on ${quantity} × ${String(item.price.nickname ?? 'item')}`,
        invoice: null,
        livemode: false,
        metadata: {},
        period: { start, end },
        proration: true,
        subscription: id,
      });
      this.webhooks.emit('customer.subscription.updated', subscription, previous);
      return subscription;
    }
    const invoice = makeInvoice(this.store, this.base(), {
      customer: String(subscription.customer),
      lines: [{ price: item.price, quantity }],
      amountDue: due,
      metadata: {},
      billingReason: 'subscription_update',
      subscription: { id, itemId: item.id, metadata: subscription.metadata as Record<string, string>, start, end },
      paid: true,
    });
    subscription.latest_invoice = invoice.id;
    this.webhooks.emit('invoice.paid', invoice);
    this.webhooks.emit('customer.subscription.updated', subscription, previous);
    return invoice;
  }

  /**
   * A change to a price of another interval (the portal's "Update plan", always_invoice): Stripe
   * starts a new billing cycle now, credits the old price's unused time (a negative line up to
   * the old period's end) and charges the new price's first period, in one invoice
   * (billing_reason subscription_update; nothing due when the credit covers it): invoice.paid and
   * customer.subscription.updated. Returns the invoice.
   */
  changeInterval(id: string, priceId: string): StripeObject {
    const subscription = this.store.get('subscription', id);
    const item = itemOf(subscription);
    const price = this.store.get('price', priceId);
    const start = now();
    const end = addInterval(start, price);
    const left = (item.current_period_end - start) / (item.current_period_end - item.current_period_start);
    const unused = -Math.round(Number(item.price.unit_amount) * item.quantity * left);
    const charged = Number(price.unit_amount) * item.quantity;
    const previous = { items: structuredClone(subscription.items), latest_invoice: subscription.latest_invoice };
    const currency = String(price.currency);
    const invoice = makeInvoice(this.store, this.base(), {
      customer: String(subscription.customer),
      lines: [],
      items: [
        {
          invoiceItem: this.store.newId('invoiceitem'),
          amount: unused,
          currency,
          description: `Unused time on ${item.quantity} × ${String(item.price.nickname ?? 'item')}`,
          period: { start, end: item.current_period_end },
        },
        {
          invoiceItem: this.store.newId('invoiceitem'),
          amount: charged,
          currency,
          description: `${item.quantity} × ${String(price.nickname ?? 'item')}`,
          period: { start, end },
        },
      ],
      amountDue: Math.max(0, charged + unused),
      metadata: {},
      billingReason: 'subscription_update',
      subscription: { id, itemId: item.id, metadata: subscription.metadata as Record<string, string>, start, end },
      paid: true,
    });
    Object.assign(item, { price: structuredClone(price), current_period_start: start, current_period_end: end });
    subscription.latest_invoice = invoice.id;
    this.webhooks.emit('invoice.paid', invoice);
    this.webhooks.emit('customer.subscription.updated', subscription, previous);
    return invoice;
  }

  /** The invoice of the subscription's next period, made (`paid` or not), not yet its state's. */
  private nextInvoice(subscription: StripeObject, paid: boolean): StripeObject {
    const item = itemOf(subscription);
    const start = item.current_period_end;
    const end = addInterval(start, item.price);
    const line: Line = { price: localized(item.price, String(subscription.currency)), quantity: item.quantity };
    const metadata = subscription.metadata as Record<string, string>;
    const due = renewalAmount(this.store, subscription, Number(line.price.unit_amount) * item.quantity, start);
    // Stripe Tax on a plan bought with it: on every invoice, on top of an exclusive price.
    const taxed = (subscription.automatic_tax as { enabled?: boolean } | undefined)?.enabled === true;
    const tax = taxed ? exclusiveTax(due, item.price) : undefined;
    return makeInvoice(this.store, this.base(), {
      customer: String(subscription.customer),
      lines: [line],
      amountDue: due + (tax ?? 0),
      ...(tax === undefined ? {} : { tax }),
      metadata: {},
      billingReason: 'subscription_cycle',
      subscription: { id: subscription.id, itemId: item.id, metadata, start, end },
      paid,
    });
  }

  /**
   * POST /v1/invoices/create_preview (`subscription`): the invoice its next period will charge, as
   * Stripe previews it: not stored, no id.
   */
  preview(form: Form): StripeObject {
    const invoice = this.nextInvoice(this.store.get('subscription', text(form.subscription) ?? ''), false);
    this.store.objects.delete(invoice.id);
    return { ...invoice, id: null, status: 'draft' } as unknown as StripeObject;
  }

  /** The next period starts: its invoice is paid (or fails: past_due). Returns the invoice. */
  renew(id: string, options: { fail?: boolean } = {}): StripeObject {
    const subscription = this.store.get('subscription', id);
    const item = itemOf(subscription);
    const start = item.current_period_end;
    const end = addInterval(start, item.price);
    const invoice = this.nextInvoice(subscription, !options.fail);
    const previous = { status: subscription.status, latest_invoice: subscription.latest_invoice };
    subscription.latest_invoice = invoice.id;
    if (options.fail) {
      subscription.status = 'past_due';
      this.webhooks.emit('invoice.payment_failed', invoice);
    } else {
      Object.assign(item, { current_period_start: start, current_period_end: end });
      subscription.status = 'active';
      this.webhooks.emit('invoice.paid', invoice);
    }
    this.webhooks.emit('customer.subscription.updated', subscription, previous);
    return invoice;
  }

  /** POST /v1/invoiceitems: pending until an invoice takes it; its period is now unless given. */
  addInvoiceItem(form: Form): StripeObject {
    const customer = this.store.get('customer', text(form.customer) ?? '');
    const subscription = text(form.subscription) ?? null;
    if (subscription) this.store.get('subscription', subscription);
    const at = now();
    const period = record(form.period);
    return this.store.put({
      id: this.store.newId('invoiceitem'),
      object: 'invoiceitem',
      amount: Number(text(form.amount) ?? 0),
      currency: text(form.currency) ?? 'usd',
      customer: customer.id,
      date: at,
      description: text(form.description) ?? null,
      invoice: null,
      livemode: false,
      metadata: record(form.metadata),
      period: { start: Number(period.start ?? at), end: Number(period.end ?? at) },
      subscription,
    });
  }

  /**
   * POST /v1/invoices: a draft invoice (billing_reason manual) for the customer, on `subscription`
   * when given, taking its pending invoice items with pending_invoice_items_behavior=include.
   */
  createInvoice(form: Form): StripeObject {
    const customer = this.store.get('customer', text(form.customer) ?? '');
    const subscriptionId = text(form.subscription);
    const subscription = subscriptionId ? this.store.get('subscription', subscriptionId) : null;
    const pending =
      text(form.pending_invoice_items_behavior) === 'include'
        ? this.store
            .all('invoiceitem')
            .filter(
              (item) =>
                item.customer === customer.id &&
                item.invoice === null &&
                item.subscription === (subscriptionId ?? null),
            )
        : [];
    const item = subscription ? itemOf(subscription) : null;
    const invoice = makeInvoice(this.store, this.base(), {
      customer: customer.id,
      lines: [],
      items: pending.map((p) => ({
        invoiceItem: p.id,
        amount: Number(p.amount),
        currency: String(p.currency),
        description: String(p.description ?? 'Invoice item'),
        period: p.period as { start: number; end: number },
      })),
      amountDue: pending.reduce((sum, p) => sum + Number(p.amount), 0),
      metadata: record(form.metadata),
      billingReason: 'manual',
      ...(subscription && item
        ? {
            subscription: {
              id: subscription.id,
              itemId: item.id,
              metadata: subscription.metadata as Record<string, string>,
              start: item.current_period_start,
              end: item.current_period_end,
            },
          }
        : {}),
      paid: false,
    });
    for (const p of pending) p.invoice = invoice.id;
    Object.assign(invoice, {
      status: 'draft',
      hosted_invoice_url: null,
      invoice_pdf: null,
      next_payment_attempt: null,
      status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    });
    return invoice;
  }

  /**
   * POST /v1/invoices/:id/void (invoice.voided: nothing is owed, its page takes no payment) and
   * POST /v1/invoices/:id/mark_uncollectible (invoice.marked_uncollectible: written off, no more
   * retries; it can still be paid). Only an open invoice (or an uncollectible one, for void).
   */
  closeInvoice(id: string, as: 'void' | 'uncollectible'): StripeObject {
    const invoice = this.store.get('invoice', id);
    if (invoice.status !== 'open' && !(as === 'void' && invoice.status === 'uncollectible')) {
      throw new InvalidRequest(`You can only ${as === 'void' ? 'void' : 'mark uncollectible'} an open invoice.`);
    }
    const transitions = invoice.status_transitions as Record<string, number | null>;
    const at = now();
    Object.assign(invoice, {
      status: as,
      next_payment_attempt: null,
      status_transitions: { ...transitions, [as === 'void' ? 'voided_at' : 'marked_uncollectible_at']: at },
    });
    this.webhooks.emit(as === 'void' ? 'invoice.voided' : 'invoice.marked_uncollectible', invoice);
    return invoice;
  }

  /** POST /v1/invoices/:id/pay: finalized and paid by the customer's card: invoice.paid. */
  payInvoice(id: string): StripeObject {
    const invoice = this.store.get('invoice', id);
    if (invoice.status !== 'draft' && invoice.status !== 'open') throw new InvalidRequest('Invoice is already paid.');
    const at = now();
    Object.assign(invoice, {
      status: 'paid',
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      hosted_invoice_url: `${this.base()}/i/${id}`,
      invoice_pdf: `${this.base()}/invoice/${id}/pdf`,
      status_transitions: { finalized_at: at, marked_uncollectible_at: null, paid_at: at, voided_at: null },
    });
    if (invoice.parent) chargeInvoice(this.store, invoice);
    this.webhooks.emit('invoice.paid', invoice);
    return invoice;
  }
}
