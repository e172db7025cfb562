// A live webhook's URL places orders in the user's account with no sign-in and no X-User, so no
// audit entry: in proxy mode the administrator never reads it (hooks, hook, hookCreate), while
// the user does; a test hook's URL places nothing and stays visible for test signals.
import { HIDDEN_SHORT_KEY } from '@router/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof confirmedUser>>;
let ivy: Awaited<ReturnType<typeof confirmedUser>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await confirmedUser(t, 'admin@example.test');
  ivy = await confirmedUser(t, 'ivy@example.test');
});
afterAll(() => t.close());

const FIELDS = 'key shortKey url isTest';
const CREATE = `mutation($k: String!, $a: String!, $test: Boolean) {
  hookCreate(connectorKey: $k, accountId: $a, isTest: $test) { ${FIELDS} } }`;
type HookFields = { key: string; shortKey: string; url: string; isTest: boolean };

describe('a webhook URL in proxy mode', () => {
  it('is the owner’s alone for a live hook: never answered to the administrator acting as them', async () => {
    const paper = await gql<{ connectorActivate: { key: string; accounts: string } }>(
      t.app,
      'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
      {},
      bearer(ivy.token),
    );
    const k = paper.data?.connectorActivate.key ?? '';
    const a = (JSON.parse(paper.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>)[0]?.id;
    const started = await gql(t.app, PROXY_START, { email: 'ivy@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'ivy@example.test' });
    const asIvy = bearer(admin.token, { 'x-user': 'ivy@example.test' });

    const own = await gql<{ hookCreate: HookFields }>(t.app, CREATE, { k, a, test: false }, bearer(ivy.token));
    const proxiedLive = await gql<{ hookCreate: HookFields }>(t.app, CREATE, { k, a, test: false }, asIvy);
    const proxiedTest = await gql<{ hookCreate: HookFields }>(t.app, CREATE, { k, a, test: true }, asIvy);
    expect(proxiedLive.data?.hookCreate).toMatchObject({ shortKey: HIDDEN_SHORT_KEY, isTest: false });
    expect(proxiedLive.data?.hookCreate.url).toBe(`${t.services.config.PUBLIC_URL}/hook/${HIDDEN_SHORT_KEY}`);

    const stored = async () =>
      (
        await t.services.db.$client.query<{ short_key: string }>(
          'select short_key from hooks where user_id = $1 order by id',
          [ivy.id],
        )
      ).rows.map((row) => row.short_key);
    const [ownKey, liveKey, testKey] = await stored();
    expect(own.data?.hookCreate.shortKey).toBe(ownKey);
    expect(proxiedTest.data?.hookCreate.shortKey).toBe(testKey);

    const LIST = `query($k: String!) { hooks(connectorKey: $k) { ${FIELDS} } }`;
    const listed = await gql<{ hooks: HookFields[] }>(t.app, LIST, { k }, asIvy);
    const shown = JSON.stringify(listed.data);
    for (const secret of [ownKey, liveKey]) expect(shown).not.toContain(secret);
    expect(listed.data?.hooks.map((hook) => hook.shortKey)).toEqual([HIDDEN_SHORT_KEY, HIDDEN_SHORT_KEY, testKey]);
    const one = await gql<{ hook: HookFields }>(
      t.app,
      `query($key: String!) { hook(key: $key) { ${FIELDS} } }`,
      { key: own.data?.hookCreate.key },
      asIvy,
    );
    expect(one.data?.hook.shortKey).toBe(HIDDEN_SHORT_KEY);
    expect(one.data?.hook.url).not.toContain(ownKey);

    // The user reads every URL of theirs.
    const mine = await gql<{ hooks: HookFields[] }>(t.app, LIST, { k }, bearer(ivy.token));
    expect(mine.data?.hooks.map((hook) => hook.shortKey)).toEqual([ownKey, liveKey, testKey]);
  });
});
