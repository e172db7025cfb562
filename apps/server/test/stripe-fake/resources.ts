// The fake's /v1 API: the endpoints and parameters the billing code and its tests use, answered
// from the store with Stripe's shapes.
import { randomBytes } from 'node:crypto';
import type { Charges } from './charges.ts';
import { type Checkout, InvalidRequest } from './checkout.ts';
import { fromFixture, type StripeObject } from './fixtures.ts';
import { type Form, type FormValue, list, record, text } from './form.ts';
import type { Handler } from './server.ts';
import { listPage, now, type Store } from './store.ts';
import type { Subscriptions } from './subscriptions.ts';

type Route = (method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler) => unknown;

interface Parts {
  store: Store;
  checkout: Checkout;
  subscriptions: Subscriptions;
  charges: Charges;
  url: () => string;
}

const expandOf = (form: Form) => list(form.expand).filter((e): e is string => typeof e === 'string');
const truthy = (value: unknown) => value === 'true';

/** A coupon's `currency_options[<cur>][amount_off]` as Stripe returns them: amounts per currency. */
function currencyOptions(value: FormValue | undefined): Record<string, { amount_off: number }> | null {
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value).map(([currency, option]) => [
    currency,
    { amount_off: Number(record(option).amount_off) },
  ]);
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/**
 * A price's `currency_options[<cur>][unit_amount]` (a price sold in several currencies), with its
 * own currency among them as Stripe lists it; null when it has none (Stripe includes the field
 * only when asked with `expand[]=currency_options`; the fake always shows it).
 */
function priceCurrencyOptions(form: Form): Record<string, { unit_amount: number; tax_behavior: string }> | null {
  const value = form.currency_options;
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  const option = (amount: number) => ({ unit_amount: amount, tax_behavior: 'unspecified' });
  const entries = Object.entries(value).map(([currency, raw]) => [currency, option(Number(record(raw).unit_amount))]);
  if (entries.length === 0) return null;
  return {
    [text(form.currency) ?? 'usd']: option(Number(text(form.unit_amount) ?? 0)),
    ...Object.fromEntries(entries),
  };
}

export function registerResources(route: Route, { store, checkout, subscriptions, charges, url }: Parts): void {
  const one = (kind: string) => (form: Form, params: Record<string, string>) =>
    store.expand(store.get(kind, params.id ?? ''), expandOf(form));
  const page = (items: StripeObject[], form: Form, path: string) => {
    const expanded = items.map((item) =>
      store.expand(
        item,
        expandOf(form).map((e) => e.replace(/^data\./, '')),
      ),
    );
    return listPage(expanded, path, Number(text(form.limit) ?? 10), text(form.starting_after));
  };

  route('POST', '/v1/customers', (form) =>
    store.put(
      fromFixture('customer', {
        id: store.newId('customer'),
        created: now(),
        // Set by Stripe with the customer's first subscription or invoice, null before.
        currency: null,
        discount: null,
        email: text(form.email) ?? null,
        name: text(form.name) ?? null,
        metadata: record(form.metadata),
      }),
    ),
  );
  route('GET', '/v1/customers/:id', one('customer'));

  route('POST', '/v1/products', (form) =>
    store.put(
      fromFixture('product', {
        id: store.newId('product'),
        name: text(form.name) ?? 'Product',
        description: text(form.description) ?? null,
        metadata: record(form.metadata),
        default_price: null,
        package_dimensions: null,
      }),
    ),
  );
  route('GET', '/v1/products/:id', one('product'));

  route('GET', '/v1/prices', (form) => {
    const active = text(form.active);
    const prices = store.all('price').filter((p) => active === undefined || String(p.active) === active);
    return page(prices, form, '/v1/prices');
  });
  route('GET', '/v1/prices/:id', one('price'));
  route('POST', '/v1/prices', (form) => {
    const recurring = record(form.recurring);
    return store.put(
      fromFixture(recurring.interval ? 'price.recurring' : 'price.one_time', {
        id: store.newId('price'),
        active: text(form.active) !== 'false',
        created: now(),
        currency: text(form.currency) ?? 'usd',
        lookup_key: text(form.lookup_key) ?? null,
        metadata: record(form.metadata),
        nickname: text(form.nickname) ?? null,
        product: text(form.product) ?? 'prod_QXg1hqf4jFNsqG',
        recurring: recurring.interval
          ? {
              interval: recurring.interval,
              interval_count: Number(recurring.interval_count ?? 1),
              meter: null,
              usage_type: 'licensed',
              trial_period_days: null,
            }
          : null,
        transform_quantity: null,
        type: recurring.interval ? 'recurring' : 'one_time',
        unit_amount: Number(text(form.unit_amount) ?? 0),
        unit_amount_decimal: text(form.unit_amount) ?? '0',
        currency_options: priceCurrencyOptions(form),
        tax_behavior: text(form.tax_behavior) ?? 'unspecified',
      }),
    );
  });
  route('POST', '/v1/prices/:id', (form, params) => {
    const price = store.get('price', params.id ?? '');
    if (form.active !== undefined) price.active = truthy(form.active);
    if (form.metadata !== undefined) price.metadata = { ...(price.metadata as object), ...record(form.metadata) };
    if (text(form.nickname) !== undefined) price.nickname = text(form.nickname);
    return price;
  });

  route('POST', '/v1/checkout/sessions', (form) => checkout.create(form));
  route('GET', '/v1/checkout/sessions', (form) => {
    const intent = text(form.payment_intent);
    const customer = text(form.customer);
    const status = text(form.status);
    const sessions = store
      .all('checkout.session')
      .filter(
        (s) =>
          (intent === undefined || s.payment_intent === intent) &&
          (customer === undefined || s.customer === customer) &&
          (status === undefined || s.status === status),
      );
    return page(sessions, form, '/v1/checkout/sessions');
  });
  route('GET', '/v1/checkout/sessions/:id', one('checkout.session'));
  route('POST', '/v1/checkout/sessions/:id/expire', (_form, params) => checkout.expire(params.id ?? ''));
  route('GET', '/v1/checkout/sessions/:id/line_items', (form, params) => {
    const session = store.get('checkout.session', params.id ?? '');
    const items = (store.lineItems.get(session.id) ?? []).map((item) => ({
      ...item,
      price: store.get('price', String(item.price)),
    }));
    return listPage(items, `/v1/checkout/sessions/${session.id}/line_items`, Number(text(form.limit) ?? 10));
  });

  route('POST', '/v1/billing_portal/sessions', (form) => {
    const customer = store.get('customer', text(form.customer) ?? '');
    const id = store.newId('billing_portal.session');
    return store.put(
      fromFixture('billing_portal.session', {
        id,
        created: now(),
        customer: customer.id,
        flow: null,
        livemode: false,
        return_url: text(form.return_url) ?? null,
        url: `${url()}/p/session/${id}`,
      }),
    );
  });

  route('GET', '/v1/subscriptions', (form) => {
    const customer = text(form.customer);
    const status = text(form.status);
    // Stripe lists every status but canceled unless `status` says otherwise ('all': every one).
    const subscriptions = store
      .all('subscription')
      .filter(
        (s) =>
          (customer === undefined || s.customer === customer) &&
          (status === 'all' || (status === undefined ? s.status !== 'canceled' : s.status === status)),
      );
    return page(subscriptions.reverse(), form, '/v1/subscriptions');
  });
  route('GET', '/v1/subscriptions/:id', one('subscription'));
  route('POST', '/v1/subscriptions/:id', (form, params) => {
    const id = params.id ?? '';
    if (form.cancel_at_period_end !== undefined) subscriptions.cancelAtPeriodEnd(id, truthy(form.cancel_at_period_end));
    const subscription = store.get('subscription', id);
    if (form.metadata !== undefined)
      subscription.metadata = { ...(subscription.metadata as object), ...record(form.metadata) };
    return subscription;
  });
  route('DELETE', '/v1/subscriptions/:id', (_form, params) => subscriptions.cancelNow(params.id ?? ''));

  route('GET', '/v1/invoices/:id', one('invoice'));
  route('POST', '/v1/invoiceitems', (form) => subscriptions.addInvoiceItem(form));
  route('POST', '/v1/invoices', (form) => subscriptions.createInvoice(form));
  route('POST', '/v1/invoices/create_preview', (form) => subscriptions.preview(form));
  route('POST', '/v1/invoices/:id/pay', (_form, params) => subscriptions.payInvoice(params.id ?? ''));
  route('POST', '/v1/invoices/:id/void', (_form, params) => subscriptions.closeInvoice(params.id ?? '', 'void'));
  route('POST', '/v1/invoices/:id/mark_uncollectible', (_form, params) =>
    subscriptions.closeInvoice(params.id ?? '', 'uncollectible'),
  );
  route('GET', '/v1/invoice_payments', (form) => {
    const invoice = text(form.invoice);
    const payment = record(form.payment);
    const payments = store
      .all('invoice_payment')
      .filter(
        (p) =>
          (invoice === undefined || p.invoice === invoice) &&
          (payment.payment_intent === undefined ||
            (p.payment as { payment_intent?: string }).payment_intent === payment.payment_intent),
      );
    return page(payments, form, '/v1/invoice_payments');
  });
  route('GET', '/v1/payment_intents/:id', one('payment_intent'));
  route('GET', '/v1/charges/:id', one('charge'));
  route('POST', '/v1/refunds', (form) => {
    const id = text(form.charge) ?? text(form.payment_intent);
    if (!id) throw new InvalidRequest('One of charge or payment_intent is required.', 'charge');
    const amount = text(form.amount);
    return charges.refund(
      id,
      amount === undefined ? undefined : Number(amount),
      text(form.reason) ?? null,
      record(form.metadata),
    );
  });
  route('GET', '/v1/refunds', (form) => {
    const charge = text(form.charge);
    const refunds = store.all('refund').filter((r) => charge === undefined || r.charge === charge);
    // Newest first, as Stripe lists.
    return page(refunds.reverse(), form, '/v1/refunds');
  });
  route('GET', '/v1/refunds/:id', one('refund'));
  route('GET', '/v1/disputes', (form) => {
    const charge = text(form.charge);
    const intent = text(form.payment_intent);
    const disputes = store
      .all('dispute')
      .filter(
        (d) => (charge === undefined || d.charge === charge) && (intent === undefined || d.payment_intent === intent),
      );
    // Newest first, as Stripe lists.
    return page(disputes.reverse(), form, '/v1/disputes');
  });
  route('GET', '/v1/disputes/:id', one('dispute'));

  route('GET', '/v1/coupons/:id', one('coupon'));
  route('POST', '/v1/coupons', (form) =>
    store.put({
      ...store.get('coupon', 'WELCOME10'),
      id: text(form.id) ?? `co_${randomBytes(6).toString('hex')}`,
      percent_off: text(form.percent_off) ? Number(text(form.percent_off)) : null,
      amount_off: text(form.amount_off) ? Number(text(form.amount_off)) : null,
      currency: text(form.currency) ?? null,
      currency_options: currencyOptions(form.currency_options),
      duration: text(form.duration) ?? 'once',
      duration_in_months: text(form.duration_in_months) ? Number(text(form.duration_in_months)) : null,
      created: now(),
    }),
  );
  route('GET', '/v1/promotion_codes', (form) => {
    const code = text(form.code);
    const active = text(form.active);
    const codes = store
      .all('promotion_code')
      .filter((p) => (code === undefined || p.code === code) && (active === undefined || String(p.active) === active));
    return page(codes, form, '/v1/promotion_codes');
  });
  route('GET', '/v1/events/:id', one('event'));
}
