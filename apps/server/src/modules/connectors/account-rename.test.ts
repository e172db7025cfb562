// connectorUpdate's account names (SPEC §2: a rename is skipped when the name is empty; §5: a name
// given is checked): an API client is told what is wrong with a name, and nothing changes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { connect, gql } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [fakeKeyBroker().broker] });
});
afterAll(() => t.close());

const UPDATE = 'mutation($k: String!, $a: String!) { connectorUpdate(key: $k, accounts: $a) { accounts } }';

/** A new user's connection to the fake broker (accounts L-1 'Live one' and D-2 'Demo two'). */
async function connection(email: string) {
  const { headers } = await insertTestUser(t.services, email);
  const { key } = await connect(t, headers, 'keyfake', ['key-1', 'sekret-ok']);
  return (accounts: unknown[]) =>
    gql<{ connectorUpdate: { accounts: string } }>(t, headers, UPDATE, { k: key, a: JSON.stringify(accounts) });
}

const namesOf = (accounts: string | undefined) =>
  (JSON.parse(accounts ?? '[]') as Array<{ id: string; name: string }>).map((a) => [a.id, a.name]);

it('skips a null name as an empty one', async () => {
  const rename = await connection('null@example.com');
  const answer = await rename([
    { id: 'L-1', name: 'Main' },
    { id: 'D-2', name: null },
  ]);
  expect(answer.error).toBeUndefined();
  expect(namesOf(answer.data?.connectorUpdate.accounts)).toEqual([
    ['L-1', 'Main'],
    ['D-2', 'Demo two'],
  ]);
});

it("answers a too long name with the name's own message, and renames nothing", async () => {
  const rename = await connection('long@example.com');
  const answer = await rename([
    { id: 'L-1', name: 'Main' },
    { id: 'D-2', name: 'n'.repeat(65) },
  ]);
  expect(answer.error).toMatchObject({
    code: 'BAD_USER_INPUT',
    message: 'At most 64 characters',
    field: 'accounts.1.name',
  });
  // Spaces around a name are not part of it: 64 characters inside them are a valid name.
  const padded = await rename([{ id: 'D-2', name: ` ${'d'.repeat(64)} ` }]);
  expect(padded.error).toBeUndefined();
  expect(namesOf(padded.data?.connectorUpdate.accounts)).toEqual([
    ['L-1', 'Live one'],
    ['D-2', 'd'.repeat(64)],
  ]);
});
