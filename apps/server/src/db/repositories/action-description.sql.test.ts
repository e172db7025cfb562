// The SQL description (searched by the activity query) must equal the shared TS one (displayed).
import { ACTION_CODES, describeAction, OWN_ACTION_CODES } from '@router/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/postgres.ts';
import { describeActionSql } from './action-description.sql.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** Provider titles as the registry gives them (one with a quote, to hold the SQL literal safe). */
const TITLES = { paper: 'Paper Trading', kraken: "Kraken's Pro" };

async function describeInSql(cases: Array<{ code: string; metadata: unknown }>): Promise<string[]> {
  const { rows } = await database.pool.query<{ description: string }>(
    `select ${describeActionSql('c.code', 'c.metadata', TITLES)} as description
     from rows from (jsonb_to_recordset($1::jsonb) as (code text, metadata jsonb)) with ordinality as c(code, metadata, n)
     order by n`,
    [JSON.stringify(cases)],
  );
  return rows.map((row) => row.description);
}

const text = fc.oneof(
  fc.constantFrom(
    'paper',
    'kraken',
    'A1',
    "it's",
    'ValidationError',
    'rejected',
    'filled',
    '',
    ' x ',
    'api_k1',
    'api_',
  ),
  fc.string({ maxLength: 6 }),
);
const scalar = fc.oneof(text, fc.integer({ min: -5, max: 99999 }), fc.constant(null), fc.boolean());
const fieldNames = [
  'providerName',
  'shortKey',
  'key',
  'name',
  'account',
  'accountId',
  'id',
  'status',
  'error',
  'reason',
  'via',
];
const nested = fc.dictionary(fc.constantFrom(...fieldNames, 'connector'), scalar, { maxKeys: 4 });
const value = fc.oneof(scalar, nested, fc.array(fc.oneof(scalar, nested), { maxLength: 3 }));
const metadata = fc.oneof(
  fc.dictionary(
    fc.constantFrom(...fieldNames, 'accounts', 'accountIds', 'hook', 'connector', 'provider', 'response', 'request'),
    value,
    { maxKeys: 7 },
  ),
  fc.constant({}),
  fc.constant(null),
);
const code = fc.constantFrom(...ACTION_CODES, ...OWN_ACTION_CODES, 'Unknown');

describe('describeActionSql', () => {
  it('matches describeAction on generated metadata', async () => {
    const cases = fc.sample(fc.record({ code, metadata }), { numRuns: 2000, seed: 42 });
    const sqlDescriptions = await describeInSql(cases);
    const mismatches = cases
      .map((c, i) => ({ ...c, ts: describeAction(c.code, c.metadata, TITLES), sql: sqlDescriptions[i] }))
      .filter((c) => c.ts !== c.sql);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('matches on the documented shapes', async () => {
    const cases = [
      { code: 'ConnectorActivate', metadata: { providerName: 'paper', accounts: [{ id: 'A1' }, 'A2', 3] } },
      { code: 'HookCreate', metadata: { hook: { shortKey: 's', name: 'n', accountId: 'P1' }, provider: 'paper' } },
      { code: 'Order', metadata: { hook: 'k', connector: { providerName: 'paper' }, response: { error: 'x' } } },
      { code: 'Order', metadata: { key: 'k', providerName: 'paper', response: { status: 'filled' } } },
      {
        code: 'Order',
        metadata: {
          hook: { shortKey: 'api_k', via: "Bob's app" },
          providerName: 'paper',
          accountId: 'P1',
          response: {},
        },
      },
      { code: 'Order', metadata: { hook: { shortKey: 'api_k' }, providerName: 'paper', response: { error: 'x' } } },
      { code: 'HookDeactivate', metadata: { hook: { key: 'k', name: 'n' }, reason: 'too many invalid requests' } },
      { code: 'HooksPause', metadata: { reason: "it's an outage", everyone: true, hooks: 3 } },
      { code: 'QueuedSignalCancel', metadata: { id: 'q1', hookKey: 'k' } },
      { code: 'QueuedSignalCancel', metadata: { id: 'q1', hookKey: 'k', reason: 'webhook deleted' } },
    ];
    expect(await describeInSql(cases)).toEqual(cases.map((c) => describeAction(c.code, c.metadata, TITLES)));
    expect((await describeInSql(cases.slice(0, 1)))[0]).toBe('Paper Trading account(s) #A1, #A2, #3 connected');
  });
});
