// The official `stripe` client, made once per configuration and loaded with the first billing
// call (like GraphQL, it stays out of a server that only takes signals). STRIPE_API_URL points it
// at a Stripe-compatible host (the test fake, a staging proxy); the API version is pinned so the
// objects we read have the shape this code was written against (../shared/stripe/README.md §1).
import { CARD_PAYMENTS_OFF } from '@router/shared';
import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';

/** Set the same version on the webhook endpoint in Stripe's dashboard. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export type StripeClient = Stripe;

const clients = new WeakMap<Config, Promise<Stripe>>();

/** Where the client sends requests: Stripe itself unless STRIPE_API_URL says otherwise. */
export function stripeHost(apiUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** The module's class, for what needs no key (webhook signatures). */
export async function loadStripe(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

/** The client, or EXECUTION "card payments are not configured" without STRIPE_SECRET_KEY. */
export function stripeClient(services: Pick<Services, 'config'>): Promise<Stripe> {
  const { config } = services;
  const key = config.STRIPE_SECRET_KEY;
  if (!key) return Promise.reject(new AppError('EXECUTION', CARD_PAYMENTS_OFF));
  let client = clients.get(config);
  if (!client) {
    client = loadStripe().then(
      (StripeClass) =>
        new StripeClass(key, {
          apiVersion: STRIPE_API_VERSION,
          ...stripeHost(config.STRIPE_API_URL),
          maxNetworkRetries: 2,
          timeout: 20_000,
          telemetry: false,
          appInfo: { name: 'signal-router' },
        }),
    );
    clients.set(config, client);
  }
  return client;
}

const isStripeError = (error: unknown): error is Stripe.errors.StripeError =>
  error instanceof Error && typeof (error as { type?: unknown }).type === 'string' && 'rawType' in error;

/** A Stripe resource that is not there (a 404 `resource_missing`). */
export function isMissing(error: unknown): boolean {
  return isStripeError(error) && (error.statusCode === 404 || error.code === 'resource_missing');
}

/**
 * Stripe refused the discount of a Checkout session it was asked to create: a coupon or promotion
 * code valid in itself that this purchase cannot use (first-time customers only, a minimum
 * amount, other products, expired or used up since we looked). Its error names `discounts`.
 */
export function isDiscountRefusal(error: unknown): boolean {
  return (
    isStripeError(error) &&
    error.rawType === 'invalid_request_error' &&
    (error.param?.startsWith('discounts') === true || error.code === 'coupon_expired')
  );
}

/**
 * A failed Stripe call as our error: logged with what Stripe says about it (never the key), and
 * answered UNAVAILABLE, since the caller can do nothing but try again later.
 */
export function stripeFailure(services: Pick<Services, 'log'>, error: unknown, doing: string): AppError {
  if (error instanceof AppError) return error;
  const details = isStripeError(error)
    ? {
        type: error.type,
        code: error.code,
        status: error.statusCode,
        requestId: error.requestId,
        message: error.message,
      }
    : { message: error instanceof Error ? error.message : String(error) };
  services.log.error({ stripe: details }, `stripe: ${doing} failed`);
  return new AppError('UNAVAILABLE', 'Card payments are unavailable right now. Please try again later.', {
    cause: error,
  });
}
