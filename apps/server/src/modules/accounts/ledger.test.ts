// Sign-up grants through the ledger, and `accountLedger`: own entries, newest first, paged like
// `actions`.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { expectBalancedLedger, inTransaction } from '../../../test/credit-fixtures.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { endCreditPeriod, grantCredits, refundCredits, spendCredits, startCreditPeriod } from './credits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SIGNAL_CREDITS: '12' } });
});
afterAll(() => t.close());

interface Entry {
  id: number;
  createdAt: number;
  credits: number;
  cause: string;
  balanceAfter: number;
}

const LEDGER = `query($limit: Int, $createdAtFrom: Float) {
  accountLedger(limit: $limit, createdAtFrom: $createdAtFrom) { id createdAt credits cause balanceAfter }
}`;

async function ledgerPage(token: string, variables: Record<string, unknown> = {}) {
  const answer = await gql<{ accountLedger: Entry[] }>(t.app, LEDGER, variables, bearer(token));
  if (!answer.data) throw new Error(JSON.stringify(answer.errors));
  return answer.data.accountLedger;
}

describe('accountLedger', () => {
  it('starts with the sign-up grant SIGNAL_CREDITS sets', async () => {
    const user = await confirmedUser(t, 'ledger-signup@example.com');
    const [entry, ...rest] = await ledgerPage(user.token);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ credits: 12, cause: 'signup', balanceAfter: 12 });
    expect(Math.abs((entry?.createdAt ?? 0) - Date.now())).toBeLessThan(60_000);
    const account = await gql<{ account: { balance: number; lastGrant: number } }>(
      t.app,
      '{ account { balance lastGrant metadata } }',
      {},
      bearer(user.token),
    );
    expect(account.data?.account).toMatchObject({
      balance: 12,
      lastGrant: 12,
      metadata: '{"creditsTotal":12,"recurring":{},"payments":[]}',
    });
    await expectBalancedLedger(t, user.id);
  });

  it('pages newest first by createdAtFrom without skipping or repeating, and shows only own entries', async () => {
    const user = await confirmedUser(t, 'ledger-pages@example.com');
    const other = await confirmedUser(t, 'ledger-other@example.com');
    // Sign-up (12), a reward (30), 25 spends in separate transactions, a reward (100): 28 entries.
    await inTransaction(t, (tx) => grantCredits(tx, user.id, 30, 'reward'));
    for (let i = 0; i < 25; i++) await inTransaction(t, (tx) => spendCredits(tx, user.id, 1, `page-sig-${i}`));
    await inTransaction(t, (tx) => grantCredits(tx, user.id, 100, 'reward', 'admin:page'));
    await inTransaction(t, (tx) => grantCredits(tx, other.id, 3, 'reward'));

    const first = await ledgerPage(user.token);
    expect(first).toHaveLength(20);
    expect(first[0]).toMatchObject({ cause: 'reward', credits: 100, balanceAfter: 12 + 30 - 25 + 100 });
    const second = await ledgerPage(user.token, { createdAtFrom: first.at(-1)?.createdAt });
    const all = [...first, ...second];
    expect(all).toHaveLength(28);
    expect(new Set(all.map((e) => e.id)).size).toBe(28);
    expect(all.at(-1)).toMatchObject({ cause: 'signup', credits: 12 });
    for (let i = 1; i < all.length; i++) {
      expect(all[i - 1]?.createdAt).toBeGreaterThanOrEqual(all[i]?.createdAt ?? 0);
      // Each entry's balance is the one before it plus its change.
      expect(all[i - 1]?.balanceAfter).toBe((all[i]?.balanceAfter ?? 0) + (all[i - 1]?.credits ?? 0));
    }
    expect(await ledgerPage(user.token, { limit: 5 })).toHaveLength(5);
    expect((await ledgerPage(other.token)).map((e) => e.cause)).toEqual(['reward', 'signup']);
  });

  it('pages entries sharing one created_at with a page boundary among them, none skipped or repeated', async () => {
    const user = await confirmedUser(t, 'ledger-ties@example.com');
    // Seven spends at one created_at, to the microsecond (a batch's rows may share a millisecond).
    await t.services.db.execute(sql`
      insert into credit_ledger (user_id, credits, recurring, cause, reference, balance_after, created_at)
      select ${user.id}, -1, 0, 'signal', 'tie-sig-' || i, 12 - i, now() + interval '1 second'
      from generate_series(1, 7) i`);
    const seen: Entry[] = [];
    let from: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await ledgerPage(user.token, { limit: 3, ...(from === undefined ? {} : { createdAtFrom: from }) });
      if (page.length === 0) break;
      seen.push(...page);
      from = page.at(-1)?.createdAt;
    }
    expect(seen).toHaveLength(8);
    expect(new Set(seen.map((e) => e.id)).size).toBe(8);
    expect(seen.at(-1)).toMatchObject({ cause: 'signup' });
  });

  it('tells, with its note, a refund of 0: the signal’s period credit lapsed with its plan period', async () => {
    const user = await confirmedUser(t, 'ledger-lapsed@example.com');
    const periodEnd = new Date(Date.now() + 30 * 86_400_000);
    await inTransaction(t, (tx) => startCreditPeriod(tx, user.id, { credits: 10, periodEnd, reference: 'in_lapse_1' }));
    await inTransaction(t, (tx) => spendCredits(tx, user.id, 1, 'lapse-sig'));
    await inTransaction(t, (tx) => endCreditPeriod(tx, user.id, 'sub_lapse_end'));
    await inTransaction(t, (tx) => refundCredits(tx, user.id, 'lapse-sig'));
    const answer = await gql<{ accountLedger: Array<Entry & { note: string | null }> }>(
      t.app,
      '{ accountLedger { credits cause note } }',
      {},
      bearer(user.token),
    );
    const entries = answer.data?.accountLedger ?? [];
    expect(entries[0]).toEqual({ credits: 0, cause: 'refund', note: '1 of 1 credits lapsed with their plan period' });
    expect(entries.find((entry) => entry.cause === 'signup')?.note).toBeNull();
    await expectBalancedLedger(t, user.id);
  });

  it('refuses a bad limit and anonymous callers', async () => {
    const user = await confirmedUser(t, 'ledger-bad@example.com');
    const bad = await gql(t.app, LEDGER, { limit: 101 }, bearer(user.token));
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const anonymous = await gql(t.app, LEDGER);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
