// A live webhook's URL places orders in the user's account with no sign-in and no X-User, so no
// audit entry: in proxy mode the administrator never reads it (hooks, hook, hookCreate, the
// activity log and its search, the per-hook stats), while the user does; a test hook's URL
// places nothing and stays visible in the hook list for test signals.
import { HIDDEN_SHORT_KEY } from '@router/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { postSignal } from '../../../test/signal-fixtures.ts';

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

/** The user's paper connection: its key and first account. */
async function paperOf(token: string): Promise<{ k: string; a: string }> {
  const paper = await gql<{ connectorActivate: { key: string; accounts: string } }>(
    t.app,
    'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
    {},
    bearer(token),
  );
  const accounts = JSON.parse(paper.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>;
  return { k: paper.data?.connectorActivate.key ?? '', a: accounts[0]?.id ?? '' };
}

describe('a webhook URL in proxy mode', () => {
  it('is the owner’s alone for a live hook: never answered to the administrator acting as them', async () => {
    const { k, a } = await paperOf(ivy.token);
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

  it('never shows in the activity log, its search or the per-hook stats while proxied', async () => {
    const jay = await confirmedUser(t, 'jay@example.test');
    const own = await gql<{ hookCreate: HookFields }>(t.app, CREATE, await paperOf(jay.token), bearer(jay.token));
    const hook = { key: own.data?.hookCreate.key ?? '', shortKey: own.data?.hookCreate.shortKey ?? '' };
    expect(hook.shortKey).toMatch(/^[0-9A-Za-z]{22}$/);
    expect((await postSignal(t, hook.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).statusCode).toBe(201);
    const trader = { shortKey: hook.shortKey, hook, headers: bearer(jay.token) };
    const started = await gql(t.app, PROXY_START, { email: 'jay@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'jay@example.test' });
    const asJay = bearer(admin.token, { 'x-user': 'jay@example.test' });
    const ACTIONS = 'query($search: String) { actions(search: $search) { id code metadata description } }';
    type Actions = { actions: Array<{ id: number; code: string; metadata: string; description: string }> };

    const mine = await gql<Actions>(t.app, ACTIONS, {}, trader.headers);
    expect(JSON.stringify(mine.data)).toContain(trader.shortKey);
    const proxied = await gql<Actions>(t.app, ACTIONS, {}, asJay);
    expect(proxied.data?.actions.map((a) => a.code).sort()).toEqual(mine.data?.actions.map((a) => a.code).sort());
    expect(JSON.stringify(proxied.data)).not.toContain(trader.shortKey);
    const created = proxied.data?.actions.find((a) => a.code === 'HookCreate');
    expect(created?.description).toContain(`Webhook ${HIDDEN_SHORT_KEY} (Webhook) created`);
    const one = await gql(
      t.app,
      'query($id: Int!) { action(id: $id) { metadata description } }',
      { id: created?.id },
      asJay,
    );
    expect(JSON.stringify(one.data)).not.toContain(trader.shortKey);

    // A search is no oracle of the key, one character at a time.
    const part = trader.shortKey.slice(0, 6);
    expect((await gql<Actions>(t.app, ACTIONS, { search: part }, trader.headers)).data?.actions.length).toBeGreaterThan(
      0,
    );
    expect((await gql<Actions>(t.app, ACTIONS, { search: part }, asJay)).data?.actions).toEqual([]);

    const STATS = `{ actionsOrderCounters(isGroup: true) { hookShortKey counter }
      actionsOrderStats(interval: "day", isGroup: true) { hookShortKey counter } }`;
    const ownStats = await gql(t.app, STATS, {}, trader.headers);
    expect(JSON.stringify(ownStats.data)).toContain(trader.shortKey);
    const proxiedStats = await gql<{ actionsOrderCounters: Array<{ hookShortKey: string | null; counter: number }> }>(
      t.app,
      STATS,
      {},
      asJay,
    );
    expect(JSON.stringify(proxiedStats.data)).not.toContain(trader.shortKey);
    expect(proxiedStats.data?.actionsOrderCounters).toEqual([{ hookShortKey: HIDDEN_SHORT_KEY, counter: 1 }]);
  });

  it('of a notification setting (its path may be the receiver’s secret) reads as its origin only', async () => {
    const kim = await confirmedUser(t, 'kim@example.test');
    const { k, a } = await paperOf(kim.token);
    const url = 'https://example.com/services/T000/B000/XXXXsecretXXXX?token=abc';
    const own = await gql<{ notificationCreate: { key: string } }>(
      t.app,
      `mutation($k: String!, $a: String!, $m: String!) {
        notificationCreate(connectorKey: $k, accountId: $a, type: 1, metadata: $m) { key } }`,
      { k, a, m: JSON.stringify({ url }) },
      bearer(kim.token),
    );
    const key = own.data?.notificationCreate.key ?? '';
    const started = await gql(t.app, PROXY_START, { email: 'kim@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'kim@example.test' });
    const asKim = bearer(admin.token, { 'x-user': 'kim@example.test' });
    const LIST = `query($k: String!, $a: String!) { notifications(connectorKey: $k, accountId: $a) { key metadata } }`;
    const listed = await gql<{ notifications: Array<{ key: string; metadata: string }> }>(t.app, LIST, { k, a }, asKim);
    expect(JSON.stringify(listed.data)).not.toContain('secret');
    const shown = JSON.parse(listed.data?.notifications[0]?.metadata ?? '{}') as { url: string };
    expect(shown).toEqual({ url: 'https://example.com/[redacted]' });

    // The form saved as shown, with other events, keeps the receiver.
    const UPDATE = 'mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { metadata } }';
    const saved = await gql<{ notificationUpdate: { metadata: string } }>(
      t.app,
      UPDATE,
      { k: key, m: JSON.stringify({ ...shown, events: ['order.filled'] }) },
      asKim,
    );
    expect(saved.errors).toBeUndefined();
    expect(saved.data?.notificationUpdate.metadata).not.toContain('secret');
    const stored = await t.services.db.$client.query('select metadata from notifications where key = $1', [key]);
    expect(stored.rows[0]?.metadata).toEqual({ url, events: ['order.filled'] });

    const mine = await gql<{ notifications: Array<{ metadata: string }> }>(t.app, LIST, { k, a }, bearer(kim.token));
    expect(JSON.parse(mine.data?.notifications[0]?.metadata ?? '{}')).toEqual({ url, events: ['order.filled'] });
  });
});
