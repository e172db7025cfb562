import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql } from '../../../test/connector-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const QUERY = `{ account { type balance credits recurringCredits recurringPeriodCredits recurringPeriodEnd metadata product { name } } }`;

describe('account', () => {
  it('answers balance, credits and the SPEC metadata fields only (sign-up codes stay private)', async () => {
    const { id, headers } = await insertTestUser(t.services, 'alice@example.com');
    await t.database.pool.query(
      `insert into accounts (user_id, type, balance, credits, recurring_period_end, metadata)
       values ($1, 3, 42, 50, to_timestamp(1900000000), $2)`,
      [
        id,
        JSON.stringify({
          creditsTotal: 75,
          signup: { referrerCode: 'secret-ref' },
          payments: [{ credits: 25, price: 900 }],
        }),
      ],
    );
    const answer = await gql<{ account: Record<string, unknown> }>(t, headers, QUERY);
    expect(answer.data?.account).toMatchObject({
      type: 3,
      balance: 42,
      credits: 50,
      recurringPeriodEnd: 1_900_000_000,
      product: null,
    });
    expect(JSON.parse(String(answer.data?.account.metadata))).toEqual({
      creditsTotal: 75,
      recurring: {},
      payments: [{ credits: 25, price: 900 }],
    });
    expect(answer.body).not.toContain('secret-ref');
  });

  it('shows defaults for a user without an account row, and requires sign-in', async () => {
    const { headers } = await insertTestUser(t.services, 'bob@example.com');
    const answer = await gql<{ account: Record<string, unknown> }>(t, headers, QUERY);
    expect(answer.data?.account).toMatchObject({ type: 1, balance: 5, credits: 5 });
    expect((await gql(t, {}, QUERY)).error?.code).toBe('UNAUTHENTICATED');
  });
});
