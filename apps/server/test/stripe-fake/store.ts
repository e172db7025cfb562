// The fake's state: every object by id (customers, products, prices, checkout and portal
// sessions, subscriptions, invoices, payment intents and their charges, refunds, disputes,
// coupons, promotion codes), with Stripe's
// id prefixes, list pages and `expand`.
import { randomBytes } from 'node:crypto';
import { startingCoupons, startingPrices, startingProducts, startingPromotionCodes } from './catalog.ts';
import type { StripeObject } from './fixtures.ts';

const PREFIXES: Record<string, string> = {
  customer: 'cus',
  product: 'prod',
  price: 'price',
  'checkout.session': 'cs_test',
  'billing_portal.session': 'bps',
  subscription: 'sub',
  subscription_item: 'si',
  invoice: 'in',
  invoice_payment: 'inpay',
  invoiceitem: 'ii',
  payment_intent: 'pi',
  charge: 'ch',
  refund: 're',
  dispute: 'dp',
  coupon: 'co',
  promotion_code: 'promo',
  discount: 'di',
  event: 'evt',
  line_item: 'li',
};

export class NotFound extends Error {
  constructor(kind: string, id: string) {
    super(`No such ${kind}: '${id}'`);
  }
}

export const now = () => Math.floor(Date.now() / 1000);

export class Store {
  readonly objects = new Map<string, StripeObject>();
  /** Line items of checkout sessions (GET /v1/checkout/sessions/:id/line_items). */
  readonly lineItems = new Map<string, StripeObject[]>();

  constructor() {
    for (const object of [
      ...startingProducts(),
      ...startingPrices(),
      ...startingCoupons(),
      ...startingPromotionCodes(),
    ]) {
      this.put(object);
    }
  }

  newId(object: string): string {
    return `${PREFIXES[object] ?? object}_${randomBytes(12).toString('hex')}`;
  }

  put<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  get(kind: string, id: string): StripeObject {
    const found = this.objects.get(id);
    if (!found || found.object !== kind) throw new NotFound(kind, id);
    return found;
  }

  all(kind: string): StripeObject[] {
    return [...this.objects.values()].filter((o) => o.object === kind);
  }

  /** A copy with `paths` expanded ('data.product', 'items.data.price.product'): ids become objects. */
  expand(object: StripeObject, paths: string[]): StripeObject {
    const copy = structuredClone(object);
    for (const path of paths) this.expandPath(copy, path.split('.'));
    return copy;
  }

  private expandPath(node: unknown, path: string[]): void {
    if (Array.isArray(node)) {
      for (const item of node) this.expandPath(item, path);
      return;
    }
    if (typeof node !== 'object' || node === null || path.length === 0) return;
    const [head, ...rest] = path as [string, ...string[]];
    const target = node as Record<string, unknown>;
    const expanded = (id: unknown) =>
      typeof id === 'string' && this.objects.has(id) ? structuredClone(this.objects.get(id)) : id;
    // A list of ids ('discounts') expands each; a path through an id ('customer.discount…')
    // expands it on the way, as Stripe does.
    const value = target[head];
    target[head] = Array.isArray(value) ? value.map(expanded) : expanded(value);
    if (rest.length > 0) this.expandPath(target[head], rest);
  }
}

/** Stripe's list envelope, paged by `limit` and `starting_after`. */
export function listPage(items: StripeObject[], url: string, limit = 10, startingAfter?: string) {
  const start = startingAfter ? items.findIndex((item) => item.id === startingAfter) + 1 : 0;
  const size = Math.min(Math.max(limit, 1), 100);
  const data = items.slice(start, start + size);
  return { object: 'list', data, has_more: start + size < items.length, url };
}
