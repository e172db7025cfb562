// Admin proxy mode (X-User) and money or legal statements: the professional application (its
// legal.a–l answers) and Checkout or the billing portal are the user's own, refused to an
// administrator acting as them with a clear message; the user themselves still gets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { professionalApplication, UPGRADE } from '../../../test/professional-application.ts';
import { hasProfessionalApplication } from '../../db/repositories/billing-account.repository.ts';
import { PAYMENT_OWNER_ONLY } from './payment-session.ts';
import { UPGRADE_OWNER_ONLY } from './upgrade.ts';

// No Stripe here: the refusal comes before anything is asked of it.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const PAYMENT = 'query($p: String) { accountPaymentSession(stripePriceId: $p) { url } }';

const application = professionalApplication();

async function proxying() {
  const admin = await confirmedUser(t, 'root@proxy-billing.test');
  await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.id]);
  const user = await confirmedUser(t, 'trader@proxy-billing.test');
  const started = await gql(t.app, PROXY_START, { email: 'trader@proxy-billing.test' }, bearer(admin.token));
  expect(started.data).toEqual({ adminProxyStart: 'trader@proxy-billing.test' });
  return { user, proxy: bearer(admin.token, { 'x-user': 'trader@proxy-billing.test' }) };
}

describe('admin proxy mode', () => {
  it('refuses accountUpgrade and Checkout or the billing portal, and stores nothing', async () => {
    const { user, proxy } = await proxying();
    const upgrade = await gql(t.app, UPGRADE, { m: application }, proxy);
    expect(upgrade.errors?.[0]).toMatchObject({ message: UPGRADE_OWNER_ONLY, extensions: { code: 'FORBIDDEN' } });
    expect(await hasProfessionalApplication(t.services.db, user.id)).toBe(false);
    for (const p of ['price_monthly', null]) {
      const session = await gql(t.app, PAYMENT, { p }, proxy);
      expect(session.errors?.[0]).toMatchObject({ message: PAYMENT_OWNER_ONLY, extensions: { code: 'FORBIDDEN' } });
    }
    // The user, signed in themselves, still applies (and reaches payments: here unconfigured).
    expect((await gql(t.app, UPGRADE, { m: application }, bearer(user.token))).data).toEqual({
      accountUpgrade: true,
    });
    const own = await gql(t.app, PAYMENT, { p: 'price_monthly' }, bearer(user.token));
    expect(own.errors?.[0]?.extensions?.code).not.toBe('FORBIDDEN');
  });
});
