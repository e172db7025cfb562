// Checkout sessions in the fake: created from the request (prices, discounts, mode, pages), then
// completed by a test or by the hosted page's Pay button, which makes what Stripe would (payment
// intent and invoice, or subscription and first invoice) and emits the events.
import { randomBytes } from 'node:crypto';
import { makeInvoice, makePaymentIntent, makeSubscription } from './billing-objects.ts';
import { customerCoupon, makeSubscriptionDiscount, spendCustomerDiscount } from './discounts.ts';
import { fromFixture, type StripeObject } from './fixtures.ts';
import { type Form, list, record, text } from './form.ts';
import {
  addInterval,
  amountOffIn,
  discountOf,
  exclusiveTax,
  type Line,
  localized,
  subtotalOf,
  unitAmountIn,
} from './money.ts';
import { now, type Store } from './store.ts';
import type { FakeParts, Webhooks } from './webhooks.ts';

/** The customer's address country, or null when Stripe Tax could not locate them. */
function addressOf(store: Store, customer: string): string | null {
  const address = store.get('customer', customer).address as { country?: string | null } | null | undefined;
  return address?.country ?? null;
}

export class InvalidRequest extends Error {
  readonly param: string | undefined;
  constructor(message: string, param?: string) {
    super(message);
    this.param = param;
  }
}

interface SessionExtras {
  lines: Line[];
  coupon: StripeObject | null;
  promotionCode: string | null;
  invoiceMetadata: Record<string, string> | null;
  subscriptionMetadata: Record<string, string>;
  /** subscription_data[trial_period_days]: the plan starts with a free trial. */
  trialDays: number;
  /** automatic_tax[enabled]: Stripe Tax adds tax on top of an exclusive price, once the address is known. */
  automaticTax: boolean;
}

export class Checkout {
  private readonly extras = new Map<string, SessionExtras>();
  private readonly store: Store;
  private readonly webhooks: Webhooks;
  private readonly base: () => string;

  constructor(parts: FakeParts) {
    ({ store: this.store, webhooks: this.webhooks, base: this.base } = parts);
  }

  /**
   * The session's line items, in `currency` when given (Checkout's `currency`: each price must
   * offer it, its own or in `currency_options`).
   */
  private linesOf(form: Form, mode: string, currency: string | null): Line[] {
    const lines = list(form.line_items).map((raw, i) => {
      const item = record(raw);
      const priceId = item.price;
      if (!priceId)
        throw new InvalidRequest('Missing required param: line_items[0][price].', `line_items[${i}][price]`);
      const price = this.store.get('price', priceId);
      if (!price.active)
        throw new InvalidRequest(`The price specified is inactive: ${priceId}`, `line_items[${i}][price]`);
      if (currency && unitAmountIn(price, currency) === null) {
        throw new InvalidRequest(`The price ${priceId} has no amount in ${currency}.`, 'currency');
      }
      return { price: currency ? localized(price, currency) : price, quantity: Number(item.quantity ?? '1') };
    });
    if (lines.length === 0) throw new InvalidRequest('Missing required param: line_items.', 'line_items');
    const recurring = lines.some((line) => line.price.type === 'recurring');
    if (mode === 'subscription' && !recurring) {
      throw new InvalidRequest('You must provide at least one recurring price in `subscription` mode.', 'line_items');
    }
    if (mode === 'payment' && recurring) {
      throw new InvalidRequest('You specified `payment` mode but passed a recurring price.', 'line_items');
    }
    return lines;
  }

  /** Whether the customer paid before (a completed Checkout session, a paid invoice). */
  private hasPaid(customer: string | null): boolean {
    if (!customer) return false;
    return (
      this.store.all('checkout.session').some((s) => s.customer === customer && s.payment_status === 'paid') ||
      this.store.all('invoice').some((i) => i.customer === customer && i.status === 'paid')
    );
  }

  /**
   * The session's discount, refused as Stripe refuses one at creation: a coupon no longer valid or
   * applying to none of the products; a promotion code inactive, for another customer, for
   * first-time customers only (this one paid before), or below its minimum amount.
   */
  private discountOf(
    form: Form,
    lines: Line[],
    customer: string | null,
  ): { coupon: StripeObject | null; promotionCode: string | null } {
    const discount = record(list(form.discounts)[0]);
    const usable = (coupon: StripeObject) => {
      if (!coupon.valid) throw new InvalidRequest(`Coupon ${coupon.id} is no longer valid.`, 'discounts');
      const products = (coupon.applies_to as { products?: string[] } | undefined)?.products;
      if (products && !lines.some((line) => products.includes(String(line.price.product)))) {
        throw new InvalidRequest(`Coupon ${coupon.id} does not apply to any of the line items.`, 'discounts');
      }
      const currency = String(lines[0]?.price.currency ?? 'usd');
      if (typeof coupon.amount_off === 'number' && amountOffIn(coupon, currency) === null) {
        throw new InvalidRequest(`Coupon ${coupon.id} cannot be applied to a purchase in ${currency}.`, 'discounts');
      }
      return coupon;
    };
    if (discount.coupon) return { coupon: usable(this.store.get('coupon', discount.coupon)), promotionCode: null };
    if (discount.promotion_code) {
      const code = this.store.get('promotion_code', discount.promotion_code);
      if (!code.active) throw new InvalidRequest('This promotion code is not active.', 'discounts');
      if (code.customer && code.customer !== customer) {
        throw new InvalidRequest('This promotion code cannot be redeemed by this customer.', 'discounts');
      }
      const restrictions = (code.restrictions ?? {}) as {
        first_time_transaction?: boolean;
        minimum_amount?: number | null;
      };
      if (restrictions.first_time_transaction && this.hasPaid(customer)) {
        throw new InvalidRequest(
          'This promotion code cannot be redeemed because the associated customer has prior transactions.',
          'discounts',
        );
      }
      if (restrictions.minimum_amount && subtotalOf(lines) < restrictions.minimum_amount) {
        throw new InvalidRequest(
          `This promotion code requires a minimum order amount of ${restrictions.minimum_amount}.`,
          'discounts',
        );
      }
      const couponId = (code.promotion as { coupon: string }).coupon;
      return { coupon: usable(this.store.get('coupon', couponId)), promotionCode: code.id };
    }
    return { coupon: null, promotionCode: null };
  }

  create(form: Form): StripeObject {
    const mode = text(form.mode) ?? 'payment';
    const uiMode = text(form.ui_mode) ?? 'hosted_page';
    const customer = text(form.customer) ?? null;
    const customerCurrency = customer ? (this.store.get('customer', customer).currency as string | null) : null;
    // Without `currency`, a price sold in several is charged in the customer's (Stripe would
    // otherwise pick one from where the buyer is), else in its own.
    const lines = this.linesOf(form, mode, text(form.currency) ?? customerCurrency);
    const currency = String(lines[0]?.price.currency ?? 'usd');
    if (mode === 'subscription' && customerCurrency && currency !== customerCurrency) {
      throw new InvalidRequest(
        `You cannot combine currencies on a single customer. This customer has an active subscription, subscription schedule, discount, quote, or invoice item with currency ${customerCurrency}.`,
        'currency',
      );
    }
    const { coupon, promotionCode } = this.discountOf(form, lines, customer);
    if (uiMode === 'hosted_page' && !text(form.success_url))
      throw new InvalidRequest('Missing required param: success_url.', 'success_url');
    if (uiMode === 'elements' && !text(form.return_url))
      throw new InvalidRequest('Missing required param: return_url.', 'return_url');
    const id = this.store.newId('checkout.session');
    const subtotal = subtotalOf(lines);
    // A plan without a discount of its own is charged less the customer's (customer.discount);
    // a one-time payment is not (Stripe applies a customer's coupon to invoices of subscriptions).
    const charged = coupon ?? (mode === 'subscription' ? customerCoupon(this.store, customer, now()) : null);
    const discount = discountOf(subtotal, charged, currency);
    // Stripe Tax needs the buyer's address: the customer's, else the one Checkout collects
    // (saved on the customer only with customer_update[address]=auto, which Stripe then demands).
    const automaticTax = record(form.automatic_tax).enabled === 'true';
    const located = automaticTax && customer !== null && addressOf(this.store, customer) !== null;
    if (automaticTax && customer && !located && record(form.customer_update).address !== 'auto') {
      throw new InvalidRequest(
        "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or `customer_update[shipping]` to 'auto' to save the address entered in Checkout to the Customer.",
        'customer_update',
      );
    }
    const tax = located ? exclusiveTax(subtotal - discount, lines[0]?.price) : 0;
    const creation = (form.invoice_creation ?? {}) as Form;
    const invoiceEnabled = text(creation.enabled) === 'true';
    const invoiceData = record(((creation.invoice_data ?? {}) as Form).metadata);
    const subscriptionData = form.subscription_data as Form | undefined;
    this.extras.set(id, {
      lines,
      coupon,
      promotionCode,
      invoiceMetadata: invoiceEnabled ? invoiceData : null,
      subscriptionMetadata: record(subscriptionData?.metadata),
      trialDays: Number(text(subscriptionData?.trial_period_days) ?? 0),
      automaticTax,
    });
    const session = fromFixture('checkout.session.payment.open', {
      id,
      after_expiration: null,
      allow_promotion_codes: text(form.allow_promotion_codes) === 'true' ? true : null,
      amount_subtotal: subtotal,
      amount_total: subtotal - discount + tax,
      automatic_tax: {
        enabled: automaticTax,
        liability: { type: 'account' },
        status: automaticTax ? (located ? 'complete' : 'requires_location_inputs') : null,
        provider: automaticTax ? 'stripe' : null,
      },
      cancel_url: text(form.cancel_url) ?? null,
      client_reference_id: text(form.client_reference_id) ?? null,
      client_secret: uiMode === 'elements' ? `${id}_secret_${randomBytes(12).toString('hex')}` : null,
      created: now(),
      currency,
      currency_conversion: null,
      customer,
      discounts: coupon ? [{ coupon: coupon.id, promotion_code: promotionCode }] : [],
      expires_at: now() + 86_400,
      invoice_creation: { enabled: invoiceEnabled, invoice_data: { metadata: invoiceData } },
      metadata: record(form.metadata),
      mode,
      return_url: text(form.return_url) ?? null,
      shipping_address_collection: null,
      shipping_cost: null,
      success_url: text(form.success_url) ?? null,
      total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: tax },
      ui_mode: uiMode,
      url: uiMode === 'hosted_page' ? `${this.base()}/c/pay/${id}` : null,
    });
    this.store.lineItems.set(
      id,
      lines.map((line) => ({
        id: this.store.newId('line_item'),
        object: 'item',
        amount_subtotal: Number(line.price.unit_amount) * line.quantity,
        amount_total: Number(line.price.unit_amount) * line.quantity,
        currency: String(line.price.currency),
        description: String(line.price.nickname ?? 'item'),
        price: line.price.id,
        quantity: line.quantity,
      })),
    );
    return this.store.put(session);
  }

  /**
   * POST /v1/checkout/sessions/{id}/expire: only an open session can be expired (Stripe: "A Checkout
   * Session can be expired when it is in one of these statuses: open"); it can no longer be paid,
   * and checkout.session.expired is sent.
   */
  expire(sessionId: string): StripeObject {
    const session = this.store.get('checkout.session', sessionId);
    if (session.status !== 'open') {
      throw new InvalidRequest(`You can only expire a Checkout Session that is open; it is ${session.status}.`);
    }
    Object.assign(session, { status: 'expired', url: null });
    this.webhooks.emit('checkout.session.expired', session);
    return session;
  }

  /** Stripe Tax's amount once the buyer's address is known (saved on the customer); the session's total with it. */
  private taxAtPayment(session: StripeObject, customer: string, extras: SessionExtras): number {
    const buyer = this.store.get('customer', customer);
    if (addressOf(this.store, customer) === null) {
      buyer.address = { ...(buyer.address as object), country: 'DE', postal_code: '10115', city: 'Berlin' };
    }
    const details = session.total_details as { amount_discount: number; amount_tax: number };
    const taxable = Number(session.amount_subtotal) - details.amount_discount;
    const tax = exclusiveTax(taxable, extras.lines[0]?.price);
    Object.assign(session, {
      amount_total: taxable + tax,
      total_details: { ...details, amount_tax: tax },
      automatic_tax: { ...(session.automatic_tax as object), status: 'complete' },
    });
    return tax;
  }

  /** Pays an open session as Stripe would after the card was accepted; returns the events emitted. */
  complete(sessionId: string): StripeObject[] {
    const session = this.store.get('checkout.session', sessionId);
    const extras = this.extras.get(sessionId);
    if (session.status !== 'open' || !extras) throw new InvalidRequest('This Checkout Session is no longer open.');
    const customer = String(
      session.customer ??
        this.store.put(fromFixture('customer', { id: this.store.newId('customer'), currency: null, discount: null }))
          .id,
    );
    // A subscription or an invoice sets the customer's currency, once.
    const buyer = this.store.get('customer', customer);
    if (!buyer.currency && (session.mode === 'subscription' || extras.invoiceMetadata))
      buyer.currency = session.currency;
    // The buyer gave their address on the page (billing_address_collection): Stripe Tax's amount
    // is in the total charged from now on.
    const tax = extras.automaticTax ? this.taxAtPayment(session, customer, extras) : undefined;
    // A free trial: nothing is charged now; the trial's invoice is of 0 and its period the trial.
    const trial = session.mode === 'subscription' && extras.trialDays > 0;
    const amount = trial ? 0 : Number(session.amount_total);
    const events: StripeObject[] = [];
    Object.assign(session, {
      status: 'complete',
      payment_status: trial ? 'no_payment_required' : 'paid',
      customer,
      url: null,
      ...(trial ? { amount_total: 0 } : {}),
    });
    if (session.mode === 'subscription') {
      const line = extras.lines[0] as Line;
      const start = now();
      const end = trial ? start + extras.trialDays * 86_400 : addInterval(start, line.price);
      const subscription = makeSubscription(this.store, {
        customer,
        line,
        metadata: extras.subscriptionMetadata,
        start,
        end,
      });
      if (trial) Object.assign(subscription, { status: 'trialing', trial_start: start, trial_end: end });
      if (extras.automaticTax) {
        subscription.automatic_tax = { enabled: true, liability: { type: 'account' }, disabled_reason: null };
      }
      const kept =
        extras.coupon &&
        makeSubscriptionDiscount(this.store, {
          coupon: extras.coupon,
          promotionCode: extras.promotionCode,
          subscription,
          start,
        });
      subscription.discounts = kept ? [kept.id] : [];
      if (!extras.coupon && !trial) spendCustomerDiscount(this.store, customer);
      const item = (subscription.items as { data: Array<{ id: string }> }).data[0];
      const invoice = makeInvoice(this.store, this.base(), {
        customer,
        lines: extras.lines,
        amountDue: amount,
        ...(tax === undefined ? {} : { tax: trial ? 0 : tax }),
        metadata: {},
        billingReason: 'subscription_create',
        subscription: {
          id: subscription.id,
          itemId: item?.id ?? '',
          metadata: extras.subscriptionMetadata,
          start,
          end,
        },
        paid: true,
      });
      subscription.latest_invoice = invoice.id;
      Object.assign(session, { subscription: subscription.id, invoice: invoice.id });
      events.push(this.webhooks.emit('customer.subscription.created', subscription));
      events.push(this.webhooks.emit('invoice.paid', invoice));
    } else {
      const intent = makePaymentIntent(
        this.store,
        customer,
        amount,
        record(session.metadata as Form),
        String(session.currency),
      );
      session.payment_intent = intent.id;
      if (extras.invoiceMetadata) {
        const invoice = makeInvoice(this.store, this.base(), {
          customer,
          lines: extras.lines,
          amountDue: amount,
          ...(tax === undefined ? {} : { tax }),
          metadata: extras.invoiceMetadata,
          billingReason: 'manual',
          paid: true,
        });
        session.invoice = invoice.id;
        events.push(this.webhooks.emit('invoice.paid', invoice));
      }
    }
    events.push(this.webhooks.emit('checkout.session.completed', session));
    return events;
  }
}
