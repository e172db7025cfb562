// hookCreate needs only connectorKey (SPEC §5 mandatory inputs): a connection of one account is
// that account's; with several, which one is the caller's to say ('Required').
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { connect, gql, HOOK_FIELDS } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';

let t: TestApp;
let alice: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [fakeKeyBroker().broker] });
  ({ headers: alice } = await insertTestUser(t.services, 'alice@example.com'));
});
afterAll(() => t.close());

const CREATE = `mutation($k: String!) { hookCreate(connectorKey: $k, name: "Strategy") { ${HOOK_FIELDS} } }`;

it('makes the hook on the only account of the connection when accountId is left out', async () => {
  const paper = await connect(t, alice, 'paper');
  const [account] = JSON.parse(paper.accounts) as Array<{ id: string }>;
  const answer = await gql<{ hookCreate: { accountId: string; name: string } }>(t, alice, CREATE, { k: paper.key });
  expect(answer.error).toBeUndefined();
  expect(answer.data?.hookCreate).toMatchObject({ accountId: account?.id, name: 'Strategy' });
});

it("answers 'Required' for accountId when the connection has several accounts, and makes nothing", async () => {
  const broker = await connect(t, alice, 'keyfake', ['key-1', 'sekret-ok']);
  const answer = await gql(t, alice, CREATE, { k: broker.key });
  expect(answer.error).toMatchObject({ code: 'BAD_USER_INPUT', message: 'Required', field: 'accountId' });
  const hooks = await gql<{ hooks: unknown[] }>(t, alice, 'query($k: String!) { hooks(connectorKey: $k) { key } }', {
    k: broker.key,
  });
  expect(hooks.data?.hooks).toEqual([]);
});
