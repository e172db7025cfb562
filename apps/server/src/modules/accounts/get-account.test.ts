import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql } from '../../../test/connector-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const QUERY = `{ account { type balance credits recurringCredits recurringPeriodCredits recurringPeriodEnd metadata
  product { name } signalsSpent lastGrant unlimited cardPayments } }`;

describe('account', () => {
  it('answers balance, credits and the SPEC metadata fields only (sign-up codes stay private)', async () => {
    const { id, headers } = await insertTestUser(t.services, 'alice@example.com');
    await t.database.pool.query(
      `insert into accounts (user_id, type, credits, recurring_credits, recurring_period_credits, recurring_period_end,
         signals_spent, metadata)
       values ($1, 3, 30, 12, 20, to_timestamp(1900000000), 8, $2)`,
      [
        id,
        JSON.stringify({
          creditsTotal: 75,
          signup: { referrerCode: 'secret-ref' },
          payments: [{ credits: 1, price: 1 }],
        }),
      ],
    );
    await t.database.pool.query(
      `insert into payments (user_id, reference, stripe_invoice_id, credits, price, currency, description, interval, created_at)
       values ($1, 'in_1', 'in_1', 25, 900, 'usd', 'Plan', 'month', to_timestamp(1732447200))`,
      [id],
    );
    const answer = await gql<{ account: Record<string, unknown> }>(t, headers, QUERY);
    expect(answer.data?.account).toMatchObject({
      type: 3,
      balance: 42,
      credits: 30,
      recurringCredits: 12,
      recurringPeriodCredits: 20,
      recurringPeriodEnd: 1_900_000_000,
      product: null,
      signalsSpent: 8,
      // The account opened with 42 (its ledger's first row).
      lastGrant: 42,
      unlimited: false,
      cardPayments: false,
    });
    // payments[] are the recorded payments (the `payments` table), not what the row's JSON holds.
    expect(JSON.parse(String(answer.data?.account.metadata))).toEqual({
      creditsTotal: 75,
      recurring: {},
      payments: [
        {
          credits: 25,
          price: 900,
          currency: 'usd',
          createdAt: 1_732_447_200_000,
          stripeInvoiceId: 'in_1',
          description: 'Plan',
          interval: 'month',
          refunded: 0,
          dispute: null,
        },
      ],
    });
    expect(answer.body).not.toContain('secret-ref');
  });

  it('shows no credits for a user without an account row (sign-up makes one), and requires sign-in', async () => {
    const { headers } = await insertTestUser(t.services, 'bob@example.com');
    const answer = await gql<{ account: Record<string, unknown> }>(t, headers, QUERY);
    expect(answer.data?.account).toMatchObject({ type: 1, balance: 0, credits: 0, signalsSpent: 0, lastGrant: null });
    expect((await gql(t, {}, QUERY)).error?.code).toBe('UNAUTHENTICATED');
  });
});
