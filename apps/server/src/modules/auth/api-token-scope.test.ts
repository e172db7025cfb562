// A personal API token drives trading and reading; it cannot take the account over: what changes
// a credential of the user (password, email, second factor, API tokens, applications) needs a
// dashboard sign-in session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN, STRONG_PASSWORD } from '../../../test/identity.ts';
import { professionalApplication, UPGRADE } from '../../../test/professional-application.ts';
import { activateConnector } from '../connectors/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function apiToken(email: string): Promise<string> {
  const { token } = await confirmedUser(t, email);
  return newApiToken(token);
}

async function newApiToken(sessionToken: string, name = 'bot'): Promise<string> {
  const created = await gql<{ userTokenCreate: { secret: string } }>(
    t.app,
    'mutation($m: JSON!) { userTokenCreate(metadata: $m) { secret } }',
    { m: { name } },
    bearer(sessionToken),
  );
  return created.data?.userTokenCreate.secret ?? '';
}

/** Each call answered FORBIDDEN for the token, asking for the dashboard. */
async function expectDashboardOnly(refused: Array<[string, Record<string, unknown>?]>, token: string) {
  for (const [query, variables] of refused) {
    const result = await gql(t.app, query, variables ?? {}, bearer(token));
    expect(result.errors?.[0]?.extensions?.code, query).toBe('FORBIDDEN');
    expect(result.errors?.[0]?.message, query).toMatch(/sign in to the dashboard/i);
  }
}

/** A trader with a paper connection, a webhook and an email setting, and an API token of theirs. */
async function setupWithToken(email: string) {
  const owner = await confirmedUser(t, email);
  const leaked = await newApiToken(owner.token, 'ci');
  const connector = await activateConnector(t.services, { userId: owner.id, address: null }, 'paper', []);
  const accountId = connector.accounts[0]?.id ?? '';
  const hook = await gql<{ hookCreate: { key: string } }>(
    t.app,
    'mutation($c: String!, $a: String!) { hookCreate(connectorKey: $c, accountId: $a, name: "Main") { key } }',
    { c: connector.key, a: accountId },
    bearer(owner.token),
  );
  const hookKey = hook.data?.hookCreate.key ?? '';
  const setting = await gql<{ notificationCreate: { key: string } }>(
    t.app,
    'mutation($c: String!, $a: String!, $m: String!) { notificationCreate(connectorKey: $c, accountId: $a, type: 2, metadata: $m) { key } }',
    { c: connector.key, a: accountId, m: JSON.stringify({ email: 'alerts@example.test' }) },
    bearer(owner.token),
  );
  const settingKey = setting.data?.notificationCreate.key ?? '';
  expect(hookKey && settingKey).toBeTruthy();
  return { owner, leaked, connector, accountId, hookKey, settingKey };
}

describe('an API token at GraphQL', () => {
  it('reads, but cannot change the password, email, second factor, tokens or applications', async () => {
    const email = 'scope@example.test';
    const api = await apiToken(email);
    expect(
      (await gql<{ user: { email: string } }>(t.app, '{ user { email } }', {}, bearer(api))).data?.user.email,
    ).toBe(email);
    const refused = [
      [
        'mutation { userPasswordUpdate(password: "Quartz-Lantern-Mosaic-91!", newPassword: "Harbor-Velvet-Orchid-77?", newPassword2: "Harbor-Velvet-Orchid-77?") }',
      ],
      ['mutation { userUpdate(email: "thief@example.test") { email } }'],
      ['mutation { userTokenCreate(metadata: {name: "mine"}) { secret } }'],
      ['mutation { userPasscodeUpdate(secret: "JBSWY3DPEHPK3PXP", passcode: "123456") { isActive } }'],
      ['mutation { userRecoveryCodesCreate(passcode: "123456") }'],
      ['mutation { userAppCreate(name: "x", redirectUrl: "https://app.example.test/cb") { key secret } }'],
    ];
    for (const [query] of refused) {
      const result = await gql(t.app, query ?? '', {}, bearer(api));
      expect(result.errors?.[0]?.extensions?.code, query).toBe('FORBIDDEN');
      expect(result.errors?.[0]?.message, query).toMatch(/sign in to the dashboard/i);
    }
    // The second factor's state shows, never a seed to enroll.
    const passcode = await gql<{ userPasscode: { secret: string; isActive: boolean } }>(
      t.app,
      '{ userPasscode { secret isActive } }',
      {},
      bearer(api),
    );
    expect(passcode.data?.userPasscode).toEqual({ secret: '', isActive: false });
    // The password is unchanged.
    const signin = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: STRONG_PASSWORD },
    });
    expect(signin.data?.signin.token).toBeTruthy();
  });

  it('cannot delete or rename the owner’s tokens, delete or redirect an application, nor open billing', async () => {
    const owner = await confirmedUser(t, 'leak@example.test');
    await t.services.db.$client.query('update users set "group" = "group" | 16 where id = $1', [owner.id]);
    const leaked = await newApiToken(owner.token, 'ci');
    await newApiToken(owner.token, 'other script');
    const app = await gql<{ userAppCreate: { key: string } }>(
      t.app,
      'mutation { userAppCreate(name: "Journal", redirectUrl: "https://app.example.test/cb") { key } }',
      {},
      bearer(owner.token),
    );
    const appKey = app.data?.userAppCreate.key ?? '';
    const LIST = '{ userTokens { key metadata } userApps { key name redirectUrl } }';
    const before = await gql(t.app, LIST, {}, bearer(owner.token));
    const tokens = (before.data as { userTokens: Array<{ key: string }> }).userTokens;
    expect(tokens).toHaveLength(2);
    const refused: Array<[string, Record<string, unknown>]> = [
      ...tokens.map((row): [string, Record<string, unknown>] => [
        'mutation($k: String!) { userTokenDelete(key: $k) }',
        { k: row.key },
      ]),
      // Nor rename one (itself included): the names are how the owner tells which to revoke.
      ...tokens.map((row): [string, Record<string, unknown>] => [
        'mutation($k: String!) { userTokenUpdate(key: $k, metadata: {name: "harmless"}) { key } }',
        { k: row.key },
      ]),
      ['mutation($k: String!) { userAppDelete(key: $k) }', { k: appKey }],
      [
        'mutation($k: String!) { userAppUpdate(key: $k, metadata: {redirectUrl: "https://evil.example.test/cb"}) { key } }',
        { k: appKey },
      ],
      ['{ accountPaymentSession { url } }', {}],
      ['{ accountPaymentSession(stripePriceId: "price_pack") { url } }', {}],
    ];
    await expectDashboardOnly(refused, leaked);
    // Everything is as it was, and the owner's dashboard session still manages it.
    expect(await gql(t.app, LIST, {}, bearer(owner.token))).toEqual(before);
    const deleted = await gql(
      t.app,
      'mutation($k: String!) { userAppDelete(key: $k) }',
      { k: appKey },
      bearer(owner.token),
    );
    expect(deleted.data).toEqual({ userAppDelete: true });
  });

  it('cannot connect, rename or delete a broker connection, nor delete a webhook or a notification setting', async () => {
    const { owner, leaked, connector, accountId, hookKey, settingKey } = await setupWithToken('setup@example.test');
    const LIST = `query($c: String!, $a: String!) { connectors { key accounts isActive }
      hooks(connectorKey: $c) { key name } notifications(connectorKey: $c, accountId: $a) { key } }`;
    const vars = { c: connector.key, a: accountId };
    const before = await gql(t.app, LIST, vars, bearer(owner.token));
    const refused: Array<[string, Record<string, unknown>]> = [
      ['mutation($k: String!) { connectorDelete(key: $k) }', { k: connector.key }],
      [
        'mutation($k: String!, $a: String!) { connectorUpdate(key: $k, accounts: $a) { key } }',
        { k: connector.key, a: JSON.stringify([{ id: accountId, name: 'renamed' }]) },
      ],
      ['mutation { connectorCreate(providerName: "paper") { type } }', {}],
      ['mutation { connectorActivate(providerName: "paper", credentials: []) { key } }', {}],
      ['mutation($k: String!) { hookDelete(key: $k) }', { k: hookKey }],
      ['mutation($k: String!) { notificationDelete(key: $k) }', { k: settingKey }],
    ];
    await expectDashboardOnly(refused, leaked);
    // Nothing changed; the token still reads the setup, and the dashboard session still manages it.
    expect(await gql(t.app, LIST, vars, bearer(owner.token))).toEqual(before);
    expect(await gql(t.app, LIST, vars, bearer(leaked))).toEqual(before);
    const deleted = await gql(
      t.app,
      'mutation($k: String!) { hookDelete(key: $k) }',
      { k: hookKey },
      bearer(owner.token),
    );
    expect(deleted.data).toEqual({ hookDelete: true });
  });

  it('cannot weaken a webhook nor change notification settings, but pauses the webhooks and creates one', async () => {
    const { owner, leaked, connector, accountId, hookKey, settingKey } = await setupWithToken('weaken@example.test');
    const rules = await gql(
      t.app,
      'mutation($k: String!, $r: String) { hookUpdate(key: $k, rules: $r) { key } }',
      { k: hookKey, r: JSON.stringify({ maxQuantity: 5 }) },
      bearer(owner.token),
    );
    expect(rules.errors).toBeUndefined();
    const LIST = `query($c: String!, $a: String!) { hooks(connectorKey: $c) { key name rules isActive pausedReason }
      notifications(connectorKey: $c, accountId: $a) { key type isEnabled metadata } }`;
    const vars = { c: connector.key, a: accountId };
    // The emergency stop is the token's: a script can halt trading.
    const paused = await gql(t.app, 'mutation { hooksPause(reason: "script stop") }', {}, bearer(leaked));
    expect(paused.data).toEqual({ hooksPause: 1 });
    const before = await gql(t.app, LIST, vars, bearer(owner.token));
    const refused: Array<[string, Record<string, unknown>]> = [
      ['mutation($k: String!) { hookUpdate(key: $k, rules: "{}") { key } }', { k: hookKey }],
      ['mutation($k: String!) { hookUpdate(key: $k, name: "renamed") { key } }', { k: hookKey }],
      ['mutation { hooksResume }', {}],
      ['mutation($k: String!) { hookActivate(key: $k) { key } }', { k: hookKey }],
      [
        'mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { key } }',
        { k: settingKey, m: JSON.stringify({ email: 'alerts@example.test', events: ['order.placed'] }) },
      ],
      [
        'mutation($c: String!, $a: String!, $m: String!) { notificationCreate(connectorKey: $c, accountId: $a, type: 2, metadata: $m) { key } }',
        { c: connector.key, a: accountId, m: JSON.stringify({ email: 'victim@example.test' }) },
      ],
    ];
    await expectDashboardOnly(refused, leaked);
    expect(await gql(t.app, LIST, vars, bearer(owner.token))).toEqual(before);
    // The token still creates a webhook (trading), paused as the others; the dashboard session
    // lifts the stop.
    const created = await gql<{ hookCreate: { key: string } }>(
      t.app,
      'mutation($c: String!, $a: String!) { hookCreate(connectorKey: $c, accountId: $a, name: "Bot") { key } }',
      vars,
      bearer(leaked),
    );
    expect(created.data?.hookCreate.key).toBeTruthy();
    const resumed = await gql(t.app, 'mutation { hooksResume }', {}, bearer(owner.token));
    expect(resumed.data).toEqual({ hooksResume: 2 });
  });

  it('cannot reset a paper account, apply for professional status, nor send or resend a notification', async () => {
    const { owner, leaked, connector, accountId, settingKey } = await setupWithToken('account@example.test');
    const tested = await gql<{ notificationTest: { id: string } }>(
      t.app,
      'mutation($k: String!) { notificationTest(key: $k) { id } }',
      { k: settingKey },
      bearer(owner.token),
    );
    const deliveryId = tested.data?.notificationTest.id ?? '';
    expect(deliveryId).toBeTruthy();
    // What a refused call would change: a test adds a delivery, a re-send queues one anew (its
    // createdAt moves). Status and attempts are the delivery worker's, which may try the test mail
    // meanwhile.
    const STATE = `query($c: String!, $a: String!) { paperAccount(connectorKey: $c, accountId: $a) { cash resetAt }
      notificationDeliveries(connectorKey: $c, accountId: $a) { id createdAt } }`;
    const vars = { c: connector.key, a: accountId };
    const before = await gql(t.app, STATE, vars, bearer(owner.token));
    const refused: Array<[string, Record<string, unknown>]> = [
      // Wipes the trader's paper history.
      ['mutation($c: String!, $a: String!) { paperAccountReset(connectorKey: $c, accountId: $a) { cash } }', vars],
      // A legal statement in the owner's name.
      [UPGRADE, { m: professionalApplication() }],
      // Mail (or a webhook call) on demand, as often as the holder likes.
      ['mutation($k: String!) { notificationTest(key: $k) { id } }', { k: settingKey }],
      ['mutation($id: String!) { notificationDeliveryResend(id: $id) { id } }', { id: deliveryId }],
    ];
    await expectDashboardOnly(refused, leaked);
    expect(await gql(t.app, STATE, vars, bearer(owner.token))).toEqual(before);
    const { rows } = await t.services.db.$client.query('select 1 from professional_applications where user_id = $1', [
      owner.id,
    ]);
    expect(rows).toEqual([]);
    // The dashboard session still does all of it.
    const reset = await gql(t.app, refused[0]?.[0] ?? '', vars, bearer(owner.token));
    expect(reset.errors).toBeUndefined();
    const applied = await gql(t.app, refused[1]?.[0] ?? '', { m: professionalApplication() }, bearer(owner.token));
    expect(applied.data).toEqual({ accountUpgrade: true });
  });
});
