// Billing tests: an in-process server on a fresh database using the Stripe fake, events taken
// from the fake (held in 'manual' delivery) and posted to POST /api/stripe/webhook with
// signatures made by the `stripe` package, users through authenticateAsUserId (or, where a test
// needs real sessions and their cache, the server's own authenticate).
import type { FastifyInstance } from 'fastify';
import type pino from 'pino';
import type Stripe from 'stripe';
import { createDatabase, createPool } from '../src/db/client.ts';
import type { Authenticate } from '../src/graphql/yoga.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from './app.ts';
import { gql } from './identity.ts';
import type { TestDatabase } from './postgres.ts';
import { fakeClient, stripeEnv } from './stripe-fake/client.ts';
import type { StripeObject } from './stripe-fake/fixtures.ts';
import { type StripeFake, startStripeFake } from './stripe-fake/server.ts';
import { signedHeader } from './stripe-fake/webhooks.ts';

export const WEBHOOK_SECRET = 'whsec_test_billing_0123456789abcdef';
export const PUBLIC_URL = 'http://localhost:3999';

export interface Billing {
  t: TestApp;
  fake: StripeFake;
  stripe: Stripe;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startBilling(
  options: { env?: Record<string, string>; log?: pino.Logger; authenticate?: Authenticate } = {},
): Promise<Billing> {
  const fake = await startStripeFake({ delivery: 'manual' });
  fake.webhooks.endpoint = { url: `${PUBLIC_URL}/api/stripe/webhook`, secret: WEBHOOK_SECRET };
  const env = { ...stripeEnv(fake, WEBHOOK_SECRET), PUBLIC_URL, ...options.env };
  const t = await startTestApp({
    env,
    authenticate: options.authenticate ?? authenticateAsUserId,
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    t,
    fake,
    stripe: fakeClient(fake),
    env,
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

/** A second server instance on the same database (its own pool), as another process would be. */
export async function secondInstance(b: Billing): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const pool = createPool(b.t.database.url, 10);
  const database: TestDatabase = { url: b.t.database.url, pool, db: createDatabase(pool), drop: () => pool.end() };
  const other = await startTestApp({ env: b.env, authenticate: authenticateAsUserId, database });
  return {
    app: other.app,
    close: async () => {
      await other.close();
      await pool.end();
    },
  };
}

export interface Delivery {
  /** The raw body (default: the event as JSON). */
  body?: string;
  secret?: string;
  timestamp?: number;
  /** The whole Stripe-Signature header instead of a signature made here. */
  header?: string | null;
  app?: FastifyInstance;
}

/** POSTs an event (or a body) to the webhook as Stripe does. */
export async function postEvent(b: Billing, event: unknown, delivery: Delivery = {}) {
  const body = delivery.body ?? JSON.stringify(event);
  const header =
    delivery.header === undefined
      ? signedHeader(body, delivery.secret ?? WEBHOOK_SECRET, delivery.timestamp)
      : delivery.header;
  const res = await (delivery.app ?? b.t.app).inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

/** Posts each event as Stripe does; an answer other than 200 fails the test. */
export async function deliverEvents(b: Billing, events: StripeObject[]): Promise<void> {
  for (const event of events) {
    const { status, body } = await postEvent(b, event);
    if (status !== 200) throw new Error(`webhook answered ${status}: ${JSON.stringify(body)}`);
  }
}

/** The price the user's plan card shows (`account.product.price`). */
export async function shownPrice(b: Billing, headers: Record<string, string>): Promise<number | undefined> {
  const answer = await gql<{ account: { product: { price: number } | null } }>(
    b.t.app,
    '{ account { product { price } } }',
    {},
    headers,
  );
  return answer.data?.account.product?.price;
}

/** The events the fake holds back, taken out of its queue. */
export function takeEvents(b: Billing): StripeObject[] {
  return b.fake.webhooks.pending.splice(0);
}

export const ofType = (events: StripeObject[], type: string): StripeObject => {
  const event = events.find((e) => e.type === type);
  if (!event) throw new Error(`no ${type} among ${events.map((e) => e.type).join(', ')}`);
  return event;
};

export async function newCustomer(b: Billing, name: string, group = 4) {
  const user = await insertTestUser(b.t.services, `${name}@billing.test`, group);
  const { rows } = await b.t.services.db.$client.query<{ key: string }>('select key from users where id = $1', [
    user.id,
  ]);
  return { ...user, key: rows[0]?.key ?? '' };
}

/** accountPaymentSession through GraphQL; throws on errors. */
export async function paymentSession(
  b: Billing,
  headers: Record<string, string>,
  variables: Record<string, unknown> = {},
) {
  const answer = await gql<{ accountPaymentSession: { url: string } }>(
    b.t.app,
    'query($p: String, $q: Int, $c: String) { accountPaymentSession(stripePriceId: $p, quantity: $q, coupon: $c) { url } }',
    { p: variables.price ?? null, q: variables.quantity ?? null, c: variables.coupon ?? null },
    headers,
  );
  return answer;
}

/** `account { metadata }` as the user of `headers` reads it, parsed (`T`: the keys a test reads). */
export async function accountMetadata<T>(b: Billing, headers: Record<string, string>): Promise<T> {
  const answer = await gql<{ account: { metadata: string } }>(b.t.app, '{ account { metadata } }', {}, headers);
  return JSON.parse(answer.data?.account.metadata ?? '{}') as T;
}

/** Buys `price` on the fake's hosted page; the events it would send, held back. */
export async function buy(
  b: Billing,
  headers: Record<string, string>,
  price: string,
  extra: Record<string, unknown> = {},
) {
  const answer = await paymentSession(b, headers, { price, ...extra });
  const url = answer.data?.accountPaymentSession.url;
  if (!url) throw new Error(JSON.stringify(answer.errors));
  const sessionId = url.split('/').at(-1) ?? '';
  b.fake.checkout.complete(sessionId);
  return { sessionId, events: takeEvents(b) };
}

/** The object an event is about. */
export const objectOf = (event: StripeObject | undefined): StripeObject => {
  const object = (event?.data as { object?: StripeObject } | undefined)?.object;
  if (!object) throw new Error('an event without data.object');
  return object;
};
