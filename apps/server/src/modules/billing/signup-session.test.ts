// accountSignupPaymentSession (SPEC §2 Signup checkout): right after sign-up, a Checkout session
// for the Payment Element with the promotion codes of the sign-up (or a coupon) as Stripe's own
// discount; an unknown or expired code is named; a reload, or a retry after a crash between
// Stripe's answer and our write, gets the same session.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Billing, postEvent, startBilling, takeEvents } from '../../../test/billing.ts';
import { gql, STRONG_PASSWORD } from '../../../test/identity.ts';
import { PACK_100, PLAN_MONTHLY, PROFESSIONAL } from '../../../test/stripe-fake/catalog.ts';
import { RULES } from '../auth/rate-limit.ts';
import { NO_RECENT_SIGNUP } from './signup-session.ts';

let b: Billing;
beforeAll(async () => {
  b = await startBilling();
});
afterAll(() => b?.close());
// More calls in this file than the sign-up rate limit lets one address make in its window.
beforeEach(() => b.t.services.identity.limiter.reset('signup-payment:127.0.0.1', RULES.signup));

interface Session {
  clientSecret: string;
  total: number;
  currency: string;
  description: string;
  publishableKey: string | null;
}

const SESSION = `query($email: String!, $price: String!, $success: String, $coupon: String, $codes: String) {
  accountSignupPaymentSession(email: $email, stripePriceId: $price, successUrl: $success, cancelUrl: $success,
    coupon: $coupon, promotionCode: $codes) { clientSecret total currency description publishableKey }
}`;

async function signup(email: string, extra: Record<string, unknown> = {}) {
  const answer = await gql(
    b.t.app,
    `mutation($credentials: JSON!, $promotionCode: String, $stripePriceId: String) {
      signup(type: "password", credentials: $credentials, promotionCode: $promotionCode, stripePriceId: $stripePriceId) { id }
    }`,
    { credentials: { email, password: STRONG_PASSWORD }, ...extra },
  );
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
}

const session = (variables: Record<string, unknown>) =>
  gql<{ accountSignupPaymentSession: Session }>(b.t.app, SESSION, variables);

describe('accountSignupPaymentSession', () => {
  it('makes an elements session for the price, with the description, total and publishable key', async () => {
    await signup('card@signup.test', { stripePriceId: PLAN_MONTHLY });
    const answer = await session({
      email: 'card@signup.test',
      price: PLAN_MONTHLY,
      success: 'http://localhost:3999/signup/success?x=1',
    });
    expect(answer.data?.accountSignupPaymentSession).toEqual({
      clientSecret: expect.stringMatching(/^cs_test_\w+_secret_\w+$/),
      total: 2000,
      currency: 'usd',
      description: 'Pro plan: 300 signal credits per month',
      publishableKey: 'pk_test_fake_0123456789',
    });
    const created = b.fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1);
    expect(created?.form).toMatchObject({
      ui_mode: 'elements',
      mode: 'subscription',
      return_url: 'http://localhost:3999/signup/success?x=1',
    });
  });

  it('applies the promotion code given at sign-up, and names an unknown or expired one', async () => {
    await signup('promo@signup.test', { stripePriceId: PACK_100, promotionCode: 'SPRING' });
    const ok = await session({ email: 'promo@signup.test', price: PACK_100 });
    expect(ok.data?.accountSignupPaymentSession.total).toBe(989);
    await signup('badpromo@signup.test', { stripePriceId: PACK_100, promotionCode: 'SPRING,LASTYEAR' });
    const refused = await session({ email: 'badpromo@signup.test', price: PACK_100 });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'The promotion code "LASTYEAR" is unknown or has expired',
      extensions: { field: 'promotionCode' },
    });
    const without = await session({ email: 'badpromo@signup.test', price: PACK_100, codes: '' });
    expect(without.data?.accountSignupPaymentSession.total).toBe(1099);
    const coupon = await session({ email: 'badpromo@signup.test', price: PACK_100, coupon: 'NOSUCH' });
    expect(coupon.errors?.[0]?.message).toBe('The coupon "NOSUCH" is unknown or has expired');
  });

  it('says a promotion code Stripe refuses for this purchase cannot be used, not that payments are down', async () => {
    await signup('bigspend@signup.test', { stripePriceId: PACK_100, promotionCode: 'BIGSPEND' });
    const sessions = () => b.fake.store.all('checkout.session').length;
    const before = sessions();
    const minimum = await session({ email: 'bigspend@signup.test', price: PACK_100 });
    expect(minimum.errors?.[0]).toMatchObject({
      message: 'The promotion code cannot be used for this purchase',
      extensions: { code: 'BAD_USER_INPUT', field: 'promotionCode' },
    });
    expect(sessions()).toBe(before);
    // A reload gets the same answer; without the code the purchase goes on.
    expect((await session({ email: 'bigspend@signup.test', price: PACK_100 })).errors?.[0]?.message).toBe(
      'The promotion code cannot be used for this purchase',
    );
    expect((await session({ email: 'bigspend@signup.test', price: PACK_100, codes: '' })).errors).toBeUndefined();

    // First-time customers only: refused once this customer paid.
    await signup('firstbuy@signup.test', { stripePriceId: PACK_100 });
    const paid = await session({ email: 'firstbuy@signup.test', price: PACK_100 });
    b.fake.checkout.complete(paid.data?.accountSignupPaymentSession.clientSecret.split('_secret_')[0] ?? '');
    takeEvents(b);
    const first = await session({ email: 'firstbuy@signup.test', price: PACK_100, codes: 'FIRSTBUY' });
    expect(first.errors?.[0]).toMatchObject({
      message: 'The promotion code cannot be used for this purchase',
      extensions: { code: 'BAD_USER_INPUT', field: 'promotionCode' },
    });
  });

  it('reuses the open session on a reload and after a crash before our write', async () => {
    await signup('reload@signup.test', { stripePriceId: PACK_100 });
    const first = await session({ email: 'reload@signup.test', price: PACK_100 });
    const again = await session({ email: 'reload@signup.test', price: PACK_100 });
    expect(again.data?.accountSignupPaymentSession.clientSecret).toBe(
      first.data?.accountSignupPaymentSession.clientSecret,
    );
    // As if the server died after Stripe made the session and before the row learnt its id.
    await b.t.services.db.$client.query(
      "update payment_sessions set stripe_id = null where user_id = (select id from users where email = 'reload@signup.test')",
    );
    const before = b.fake.store.all('checkout.session').length;
    const retried = await session({ email: 'reload@signup.test', price: PACK_100 });
    expect(retried.data?.accountSignupPaymentSession.clientSecret).toBe(
      first.data?.accountSignupPaymentSession.clientSecret,
    );
    expect(b.fake.store.all('checkout.session')).toHaveLength(before);
  });

  it('refuses what it cannot sell, and tells nothing about unknown emails', async () => {
    await signup('refuse@signup.test');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 'nobody@signup.test', price: PACK_100 }, NO_RECENT_SIGNUP],
      [{ email: 'refuse@signup.test', price: 'plan_old' }, 'A price id starts with price_'],
      [{ email: 'refuse@signup.test', price: PROFESSIONAL }, 'This price is not on sale'],
      [{ email: 'not-an-email', price: PACK_100 }, 'Invalid email'],
    ];
    for (const [variables, message] of cases) {
      expect((await session(variables)).errors?.[0]?.message, JSON.stringify(variables)).toBe(message);
    }
    await b.t.services.db.$client.query(
      "update users set created_at = now() - interval '2 days' where email = 'refuse@signup.test'",
    );
    expect((await session({ email: 'refuse@signup.test', price: PACK_100 })).errors?.[0]?.message).toBe(
      NO_RECENT_SIGNUP,
    );
  });

  it('refuses a second plan once the first is paid, sending the user to Account & Billing', async () => {
    await signup('twoplans@signup.test', { stripePriceId: PLAN_MONTHLY });
    const first = await session({ email: 'twoplans@signup.test', price: PLAN_MONTHLY });
    const sessionId = first.data?.accountSignupPaymentSession.clientSecret.split('_secret_')[0] ?? '';
    b.fake.checkout.complete(sessionId);
    for (const event of takeEvents(b)) expect((await postEvent(b, event)).status).toBe(200);
    // The page reloaded after paying: the paid session is not open any more.
    const second = await session({ email: 'twoplans@signup.test', price: PLAN_MONTHLY });
    expect(second.errors?.[0]?.message).toBe(NO_RECENT_SIGNUP);
    // A pack is still for sale.
    expect((await session({ email: 'twoplans@signup.test', price: PACK_100 })).errors).toBeUndefined();
  });

  it('refuses a second plan on a reload right after paying, before Stripe’s events reached us', async () => {
    await signup('twoplans-early@signup.test', { stripePriceId: PLAN_MONTHLY });
    const first = await session({ email: 'twoplans-early@signup.test', price: PLAN_MONTHLY });
    const sessionId = first.data?.accountSignupPaymentSession.clientSecret.split('_secret_')[0] ?? '';
    b.fake.checkout.complete(sessionId);
    const events = takeEvents(b);
    const second = await session({ email: 'twoplans-early@signup.test', price: PLAN_MONTHLY });
    expect(second.errors?.[0]?.message).toBe(NO_RECENT_SIGNUP);
    expect((await session({ email: 'twoplans-early@signup.test', price: PACK_100 })).errors).toBeUndefined();
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('leaves one plan page payable: a new plan session expires the one opened before', async () => {
    await signup('twoplans-open@signup.test', { stripePriceId: PLAN_MONTHLY });
    const first = await session({ email: 'twoplans-open@signup.test', price: PLAN_MONTHLY });
    // The same plan again with a coupon (another tab, or back and forth): another session.
    const second = await session({ email: 'twoplans-open@signup.test', price: PLAN_MONTHLY, coupon: 'WELCOME10' });
    const idOf = (answer: typeof first) =>
      answer.data?.accountSignupPaymentSession.clientSecret.split('_secret_')[0] ?? '';
    expect([first.errors, second.errors]).toEqual([undefined, undefined]);
    expect(idOf(second)).not.toBe(idOf(first));
    // Both paid would be two plans, both charged: the first can no longer be paid.
    expect(() => b.fake.checkout.complete(idOf(first))).toThrow('no longer open');
    b.fake.checkout.complete(idOf(second));
    for (const event of takeEvents(b)) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('leaves the plan page open before as it was when Stripe refuses the new page’s coupon', async () => {
    await signup('plan-coupon-refused@signup.test', { stripePriceId: PLAN_MONTHLY });
    const first = await session({ email: 'plan-coupon-refused@signup.test', price: PLAN_MONTHLY });
    const refused = await session({
      email: 'plan-coupon-refused@signup.test',
      price: PLAN_MONTHLY,
      coupon: 'OTHERPRODUCT',
    });
    expect(refused.errors?.[0]?.message).toBe('The coupon "OTHERPRODUCT" cannot be used for this purchase');
    const firstId = first.data?.accountSignupPaymentSession.clientSecret.split('_secret_')[0] ?? '';
    expect(b.fake.store.get('checkout.session', firstId).status).toBe('open');
    b.fake.checkout.complete(firstId);
    for (const event of takeEvents(b)) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('serves only the client that signed up: a stranger with the email gets no session, nor expires one', async () => {
    await signup('victim@signup.test', { stripePriceId: PLAN_MONTHLY });
    const own = await session({ email: 'victim@signup.test', price: PLAN_MONTHLY });
    const ownId = own.data?.accountSignupPaymentSession.clientSecret.split('_secret_')[0] ?? '';
    const sessions = () => b.fake.store.all('checkout.session').length;
    const before = sessions();
    const stranger = async (variables: Record<string, unknown>) => {
      const res = await b.t.app.inject({
        method: 'POST',
        url: '/graphql',
        remoteAddress: '203.0.113.77',
        payload: { query: SESSION, variables },
      });
      return res.json() as { data?: { accountSignupPaymentSession: Session } | null; errors?: { message: string }[] };
    };
    // The open page's secret, a new page (which would expire the owner's), or one for a pack:
    // answered as for an email nobody signed up with.
    for (const variables of [
      { email: 'victim@signup.test', price: PLAN_MONTHLY },
      { email: 'victim@signup.test', price: PLAN_MONTHLY, coupon: 'WELCOME10' },
      { email: 'victim@signup.test', price: PACK_100 },
      { email: 'nobody@signup.test', price: PACK_100 },
    ]) {
      const answer = await stranger(variables);
      expect(answer.data?.accountSignupPaymentSession, JSON.stringify(variables)).toBeUndefined();
      expect(answer.errors?.[0]?.message, JSON.stringify(variables)).toBe(NO_RECENT_SIGNUP);
    }
    expect(sessions()).toBe(before);
    expect(b.fake.store.get('checkout.session', ownId).status).toBe('open');
    // The owner's reload still gets its page.
    const reload = await session({ email: 'victim@signup.test', price: PLAN_MONTHLY });
    expect(reload.data?.accountSignupPaymentSession.clientSecret).toBe(
      own.data?.accountSignupPaymentSession.clientSecret,
    );
  });

  it('sends Stripe back only to our own origin', async () => {
    await signup('origin@signup.test', { stripePriceId: PACK_100 });
    await session({ email: 'origin@signup.test', price: PACK_100, success: 'https://evil.example/steal' });
    const created = b.fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1);
    expect(created?.form.return_url).toBe('http://localhost:3999/signup/success');
  });
});
