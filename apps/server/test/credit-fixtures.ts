// The credit ledger as tests read it: a user's rows in order, and the books check that the
// balance is their sum and each row's balanceAfter the running sum up to it.
import { expect } from 'vitest';
import type { Transaction } from '../src/db/repositories/executor.ts';
import type { TestApp } from './app.ts';

export interface LedgerLine {
  cause: string;
  credits: number;
  recurring: number;
  reference: string | null;
  balance_after: number;
}

export async function ledgerOf(t: TestApp, userId: number): Promise<LedgerLine[]> {
  const { rows } = await t.services.db.$client.query<LedgerLine>(
    `select cause, credits, recurring, reference, balance_after from credit_ledger
     where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows;
}

export async function accountOf(t: TestApp, userId: number) {
  const { rows } = await t.services.db.$client.query<{
    balance: number;
    credits: number;
    recurring_credits: number;
    recurring_period_credits: number;
    recurring_period_end: Date | null;
    signals_spent: number;
    metadata: Record<string, unknown>;
  }>(
    `select balance, credits, recurring_credits, recurring_period_credits, recurring_period_end, signals_spent, metadata
     from accounts where user_id = $1`,
    [userId],
  );
  return rows[0];
}

/** The balance equals the ledger's sum, and every balanceAfter is the running sum; returns the ledger. */
export async function expectBalancedLedger(t: TestApp, userId: number): Promise<LedgerLine[]> {
  const ledger = await ledgerOf(t, userId);
  const account = await accountOf(t, userId);
  let sum = 0;
  let recurring = 0;
  ledger.forEach((line, index) => {
    sum += line.credits;
    recurring += line.recurring;
    expect(line.balance_after, `balanceAfter of row ${index} (${line.cause} ${line.reference})`).toBe(sum);
  });
  expect(account?.balance ?? 0, 'balance = the ledger sum').toBe(sum);
  expect(account?.recurring_credits ?? 0, 'recurringCredits = the ledger sum of recurring').toBe(recurring);
  return ledger;
}

/** Runs `work` in a transaction of the app's database. */
export function inTransaction<T>(t: TestApp, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return t.services.db.transaction(work);
}
