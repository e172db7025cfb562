// Professional status has two sources: an administrator (`adminUserProfessional`, for servers
// without card payments) and a paid Stripe professional price (the billing webhook). Both set
// group bit 16, and the developer Applications resolvers honour either at once, through real
// sign-in sessions (whose resolved group the server caches briefly).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Billing, buy, objectOf, ofType, postEvent, startBilling, takeEvents } from '../../../test/billing.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { applyForProfessional } from '../../../test/professional-application.ts';
import { PRODUCT_ID, PROFESSIONAL as PROFESSIONAL_PRICE } from '../../../test/stripe-fake/catalog.ts';
import { authenticate } from '../auth/authenticate.ts';
import { clearCatalog } from '../billing/catalog.ts';

let b: Billing;
let adminToken: string;
beforeAll(async () => {
  b = await startBilling({ authenticate });
  adminToken = (await confirmedUser(b.t, 'admin@pro.test')).token;
});
afterAll(() => b?.close());

const CREATE = `mutation($name: String!, $redirectUrl: String!) {
  userAppCreate(name: $name, redirectUrl: $redirectUrl) { key }
}`;
const APPS = '{ userApps { key } }';
const GRANT = `mutation($email: String!, $on: Boolean!) {
  adminUserProfessional(email: $email, isProfessional: $on) { group }
}`;

/** userAppCreate's answer: the new key, or the error code. */
async function createApp(token: string, name: string): Promise<string> {
  const res = await gql<{ userAppCreate: { key: string } }>(
    b.t.app,
    CREATE,
    { name, redirectUrl: 'https://apps.example.com/cb' },
    bearer(token),
  );
  return res.data?.userAppCreate.key ?? String(res.errors?.[0]?.extensions?.code);
}

async function appKeys(token: string): Promise<string[]> {
  const res = await gql<{ userApps: Array<{ key: string }> }>(b.t.app, APPS, {}, bearer(token));
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return res.data.userApps.map((app) => app.key);
}

/** accountUpgrade: the application every payment for professional status needs first. */
const apply = (token: string) => applyForProfessional(b.t, bearer(token));

describe('the Applications resolvers and professional status', () => {
  it('honour a grant by an administrator at once, and its removal', async () => {
    const user = await confirmedUser(b.t, 'granted@pro.test');
    expect(await createApp(user.token, 'Before')).toBe('FORBIDDEN');
    const on = await gql(b.t.app, GRANT, { email: 'granted@pro.test', on: true }, bearer(adminToken));
    expect(on.data).toEqual({ adminUserProfessional: { group: 4 | 16 } });
    const key = await createApp(user.token, 'Granted');
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(await appKeys(user.token)).toEqual([key]);
    await gql(b.t.app, GRANT, { email: 'granted@pro.test', on: false }, bearer(adminToken));
    expect(await createApp(user.token, 'After')).toBe('FORBIDDEN');
  });

  it('refuse, every one of them, a professional who is not a customer (as every signed-in resolver does)', async () => {
    const user = await confirmedUser(b.t, 'outsider@pro.test');
    await gql(b.t.app, GRANT, { email: 'outsider@pro.test', on: true }, bearer(adminToken));
    const key = await createApp(user.token, 'Own');
    await b.t.services.db.$client.query('update users set "group" = 16 where id = $1', [user.id]);
    b.t.services.identity.sessions.evictUser(user.id);
    expect(await createApp(user.token, 'Another')).toBe('FORBIDDEN');
    for (const [query, variables] of [
      [APPS, {}],
      ['query($key: String!) { userApp(key: $key) { key } }', { key }],
      ['mutation($key: String!) { userAppUpdate(key: $key, metadata: { name: "X" }) { key } }', { key }],
      ['mutation($key: String!) { userAppDelete(key: $key) }', { key }],
    ] as const) {
      const res = await gql(b.t.app, query, variables, bearer(user.token));
      expect(res.errors?.[0]?.extensions?.code, query).toBe('FORBIDDEN');
    }
  });

  it('honour professional status paid through Stripe at once', async () => {
    const user = await confirmedUser(b.t, 'paid@pro.test');
    const headers = bearer(user.token);
    // The session is resolved (and cached) as a customer's before the payment.
    expect(await createApp(user.token, 'Before')).toBe('FORBIDDEN');
    await apply(user.token);
    const { events } = await buy(b, headers, PROFESSIONAL_PRICE);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    const me = await gql<{ user: { group: number } }>(b.t.app, '{ user { group } }', {}, headers);
    expect(me.data?.user.group).toBe(4 | 16);
    const key = await createApp(user.token, 'Paid');
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(await appKeys(user.token)).toEqual([key]);
    // The administrator's form sees the same status: removing it takes effect at once too.
    const off = await gql(b.t.app, GRANT, { email: 'paid@pro.test', on: false }, bearer(adminToken));
    expect(off.data).toEqual({ adminUserProfessional: { group: 4 } });
    expect(await createApp(user.token, 'After')).toBe('FORBIDDEN');
  });
});

describe('professional status granted by an administrator', () => {
  const grant = (email: string, on: boolean) => gql(b.t.app, GRANT, { email, on }, bearer(adminToken));
  const groupOf = async (token: string) =>
    (await gql<{ user: { group: number } }>(b.t.app, '{ user { group } }', {}, bearer(token))).data?.user.group;
  const deliver = async (events = takeEvents(b)) => {
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
  };

  it('holds when a payment for it is refunded in full, until an administrator removes it', async () => {
    const user = await confirmedUser(b.t, 'refunded@pro.test');
    await apply(user.token);
    const { sessionId, events } = await buy(b, bearer(user.token), PROFESSIONAL_PRICE);
    await deliver(events);
    expect(await groupOf(user.token)).toBe(4 | 16);
    // Granted as well (the server's operator vouches for this trader): a source of its own.
    expect((await grant('refunded@pro.test', true)).data).toEqual({ adminUserProfessional: { group: 4 | 16 } });
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(user.token)).toBe(4 | 16);
    expect((await grant('refunded@pro.test', false)).data).toEqual({ adminUserProfessional: { group: 4 } });
    expect(await groupOf(user.token)).toBe(4);
  });

  it('holds when a plan that sells it ends', async () => {
    const price = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 2900,
      recurring: { interval: 'month' },
      nickname: 'Professional desk',
      metadata: { professional: 'true' },
      product: PRODUCT_ID,
    });
    clearCatalog(b.t.services);
    const user = await confirmedUser(b.t, 'plan-ended@pro.test');
    await apply(user.token);
    const { events } = await buy(b, bearer(user.token), price.id);
    await deliver(events);
    expect(await groupOf(user.token)).toBe(4 | 16);
    await grant('plan-ended@pro.test', true);
    await b.stripe.subscriptions.cancel(String(objectOf(ofType(events, 'customer.subscription.created')).id));
    await deliver();
    expect(await groupOf(user.token)).toBe(4 | 16);
  });
});
