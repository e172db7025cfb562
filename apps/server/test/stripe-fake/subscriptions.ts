// Subscriptions over time in the fake: cancelled at the period's end or at once (what the billing
// portal does), changed within the period (its quantity, invoiced at once), renewed (a new
// period, its invoice paid) or failing to renew (past_due), each with the events Stripe sends for it.
import { makeInvoice } from './billing-objects.ts';
import type { StripeObject } from './fixtures.ts';
import { addInterval, type Line } from './money.ts';
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
   */
  changeQuantity(id: string, quantity: number): StripeObject {
    const subscription = this.store.get('subscription', id);
    const item = itemOf(subscription);
    const start = now();
    const end = item.current_period_end;
    const left = (end - start) / (end - item.current_period_start);
    const due = Math.max(0, Math.round(Number(item.price.unit_amount) * (quantity - item.quantity) * left));
    const previous = { items: structuredClone(subscription.items), latest_invoice: subscription.latest_invoice };
    item.quantity = quantity;
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

  /** The next period starts: its invoice is paid (or fails: past_due). Returns the invoice. */
  renew(id: string, options: { fail?: boolean } = {}): StripeObject {
    const subscription = this.store.get('subscription', id);
    const item = itemOf(subscription);
    const start = item.current_period_end;
    const end = addInterval(start, item.price);
    const line: Line = { price: item.price, quantity: item.quantity };
    const metadata = subscription.metadata as Record<string, string>;
    const invoice = makeInvoice(this.store, this.base(), {
      customer: String(subscription.customer),
      lines: [line],
      amountDue: Number(item.price.unit_amount) * item.quantity,
      metadata: {},
      billingReason: 'subscription_cycle',
      subscription: { id, itemId: item.id, metadata, start, end },
      paid: !options.fail,
    });
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
}
