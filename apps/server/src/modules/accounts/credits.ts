// Signal credits (SPEC §3 Account; issue 14 points 7 and 8): the one place that grants, spends
// and refunds them outside the hook path. Each function takes an open transaction, locks the
// user's account, and writes the new credits and their ledger rows in one statement, so the
// balance always equals the sum of the user's ledger. Run it in the caller's transaction, with
// whatever else must happen exactly once with it (the Stripe event row, the admin action).
//
// The model: one-time credits (`credits`: sign-up, packs, rewards, referrals) never expire. A
// plan period sets `recurringPeriodCredits`, resets `recurringCredits` to it (what was left
// lapses) and sets `recurringPeriodEnd`. A signal spends `recurringCredits` first, then
// `credits`. `balance` = `credits + recurringCredits` (the database enforces it).
//
// Notifications: a change that takes the balance into the web app's low-credit warning (at most
// 20 % of the last grant, creditsAlert of @router/shared) or to 0 emits credits.low /
// credits.exhausted in the same statement (db/repositories/credit-events.sql.ts; the hook's
// store statement uses the same rule).
//
// Signatures (tx: a Drizzle transaction, `services.db.transaction(async (tx) => …)`):
//
//   grantCredits(tx, userId, credits, cause, reference?) → LedgerEntry | null
//     credits: integer > 0; cause: 'signup' | 'purchase' | 'reward' | 'referral';
//     reference: what caused it (Stripe checkout session or invoice id, 'referral:<userId>', an
//     admin action id…); with a reference the grant happens once: null when that cause and
//     reference are in the ledger already (nothing changed).
//   startCreditPeriod(tx, userId, { credits, periodEnd, reference, current?, change? }) → LedgerEntry[] | null
//     a paid plan period (reference: the Stripe invoice id): unused period credits lapse, then
//     the period's credits. null: already recorded, or a period ending before the current one
//     (an event delivered out of order) unless `current`: Stripe holds it as its plan's current
//     period now (a plan that replaced a longer one: a yearly plan ended early, or switched); or
//     the period recorded (ending then), started by another invoice, unless `change`.
//     `change`: the plan changed within the period (an invoice for its rest): when it is the
//     period recorded, what was spent of it stays spent: the credits left change by the
//     difference between the new period credits and the old (never below 0, never above the new
//     credits less what the period's ledger rows used of it: periodCreditsUsed), instead of
//     starting afresh (else every upgrade, or a downgrade, would hand out a whole new period).
//   changeRecordedPeriod(tx, userId, { credits, periodEnd, reference }) → LedgerEntry[] | null
//     the plan of the period recorded (ending periodEnd) changed within it with no invoice now
//     (the rest billed with the renewal): `change`'s move by the difference, once; null when
//     that is not the period recorded or its credits per period are these already.
//   endCreditPeriod(tx, userId, reference) → LedgerEntry | null
//     the plan ended (subscription deleted): unused period credits lapse, recurringPeriodCredits
//     becomes 0; recurringPeriodEnd stays, so an older period arriving late is still refused.
//     The lapse entry, or null when nothing was left (or that reference was recorded).
//   spendCredits(tx, userId, credits, reference) → { ok: true, entry } | { ok: false }
//     cause 'signal' (the hook spends in its own batched statement with the same rule);
//     entry null with SIGNAL_CREDITS=unlimited or when that reference was spent already.
//   reverseCredits(tx, userId, credits, reference, periodEnd?) → LedgerEntry | null
//     a pack's credits taken back (its payment refunded, a dispute of it lost; reference:
//     '<session id>:<refund or dispute id>'), once: one-time credits, never below 0; a row that
//     found fewer left than `credits` takes what is left and says so in its note, and claims
//     the one-time credits still short from live signals holding them (held-credits.repository.ts:
//     their failed orders do not get them back). With
//     `periodEnd`, a plan invoice's: period credits, only while the period ending then is the
//     current one (an older period's lapsed; null: none are left).
//   restoreReversal(tx, userId, reference, periodEnd?) → LedgerEntry | null
//     gives back what the 'reversal' entry `reference` took (its refund failed later), to the
//     pools it came from, once: a 'restore' entry with the same reference (the pack's credits
//     stand again; no grant: the low-credit mark stays that of the last grant); null when there
//     was no such reversal or it was given back already. Its claims on held signals' credits end
//     (what a failed order's refund kept meanwhile comes back). With `periodEnd` (a plan invoice's), period credits come back only while that period is current.
//   refundCredits(tx, userId, reference) → LedgerEntry | null
//     gives back what the 'signal' entry `reference` took, to the pools it came from, once; its
//     period credits only while the period it was spent in runs (no period started and the plan
//     not ended since: else they lapsed, and the refund row says so in its note), never above the
//     period's credits. signalsSpent drops by the whole signal's credits (it kept none).

import {
  type CreditState,
  findLedgerEntry,
  hasLedgerEntry,
  KEPT_NOTE,
  type LedgerRow,
  lockCredits,
  type NewLedgerEntry,
  PLAN_CHANGE_NOTE,
  periodCreditsUsed,
  periodOverSince,
  writeCredits,
} from '../../db/repositories/credits.repository.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import {
  claimNote,
  claimsOf,
  heldOneTimeSignals,
  isClaimed,
  markClaimed,
  unmarkClaimed,
} from '../../db/repositories/held-credits.repository.ts';
import { AppError } from '../../errors.ts';

export type LedgerEntry = LedgerRow;

/** Causes of one-time credits (grantCredits). */
export const ONE_TIME_CAUSES = ['signup', 'purchase', 'reward', 'referral'] as const;
export type OneTimeCause = (typeof ONE_TIME_CAUSES)[number];

const MAX_REFERENCE = 255;
/** Far above any pack or plan; keeps balances inside PostgreSQL's integer. */
const MAX_CHANGE = 100_000_000;

function checkCredits(credits: number, min: number): void {
  if (!Number.isInteger(credits) || credits < min || credits > MAX_CHANGE) {
    throw new AppError('VALIDATION', `Credits must be a whole number from ${min} to ${MAX_CHANGE}`, {
      field: 'credits',
    });
  }
}

function checkReference(reference: string | null): void {
  if (reference !== null && (reference.length === 0 || reference.length > MAX_REFERENCE)) {
    throw new AppError('VALIDATION', `Reference must be 1 to ${MAX_REFERENCE} characters`, { field: 'reference' });
  }
}

const balanceOf = (state: Pick<CreditState, 'credits' | 'recurringCredits'>) => state.credits + state.recurringCredits;

/** Locks the account; null when `cause`/`reference` is in the ledger already (read after the lock). */
async function lockOnce(tx: Transaction, userId: number, cause: string, reference: string | null) {
  checkReference(reference);
  const state = await lockCredits(tx, userId);
  if (reference !== null && (await hasLedgerEntry(tx, cause, reference))) return null;
  return state;
}

export async function grantCredits(
  tx: Transaction,
  userId: number,
  credits: number,
  cause: OneTimeCause,
  reference: string | null = null,
): Promise<LedgerEntry | null> {
  checkCredits(credits, 1);
  if (!(ONE_TIME_CAUSES as readonly string[]).includes(cause)) {
    throw new AppError('VALIDATION', `Unknown grant cause ${cause}`, { field: 'cause' });
  }
  const state = await lockOnce(tx, userId, cause, reference);
  if (!state) return null;
  const [entry] = await writeCredits(
    tx,
    userId,
    { credits: state.credits + credits, recurringCredits: state.recurringCredits, granted: credits, spent: 0 },
    [{ credits, recurring: 0, cause, reference, balanceAfter: balanceOf(state) + credits }],
  );
  return entry ?? null;
}

/** A lapse of the period credits left, as the first entry of a change. */
function lapse(state: CreditState, reference: string | null): NewLedgerEntry[] {
  const left = state.recurringCredits;
  if (left === 0) return [];
  return [{ credits: -left, recurring: -left, cause: 'lapse', reference, balanceAfter: balanceOf(state) - left }];
}

export async function startCreditPeriod(
  tx: Transaction,
  userId: number,
  period: { credits: number; periodEnd: Date; reference: string; current?: boolean; change?: boolean },
): Promise<LedgerEntry[] | null> {
  checkCredits(period.credits, 0);
  if (Number.isNaN(period.periodEnd.getTime())) {
    throw new AppError('VALIDATION', 'Invalid period end', { field: 'periodEnd' });
  }
  const state = await lockOnce(tx, userId, 'period', period.reference);
  if (!state) return null;
  if (!period.current && state.recurringPeriodEnd && period.periodEnd < state.recurringPeriodEnd) return null;
  const recorded = state.recurringPeriodEnd?.getTime() === period.periodEnd.getTime();
  if (period.change && recorded) return changeCreditPeriod(tx, userId, state, period);
  // The period recorded, started by another invoice: a plan change's, delivered before the
  // period's own (first or renewal) invoice. It started it with the plan as it is now.
  if (recorded) return null;
  const entries = lapse(state, period.reference);
  entries.push({
    credits: period.credits,
    recurring: period.credits,
    cause: 'period',
    reference: period.reference,
    balanceAfter: state.credits + period.credits,
  });
  return writeCredits(
    tx,
    userId,
    {
      credits: state.credits,
      recurringCredits: period.credits,
      period: { credits: period.credits, end: period.periodEnd },
      granted: period.credits,
      spent: 0,
    },
    entries,
  );
}

/**
 * The plan of the period recorded (ending `periodEnd`) changed within it, with nothing invoiced
 * for it now (billed with the renewal, or not at all): the credits left move by the difference,
 * as startCreditPeriod's `change` does for an invoice of the rest of the period. Null when that
 * period is not the one recorded, its credits per period are these already, or `reference` was
 * recorded.
 */
export async function changeRecordedPeriod(
  tx: Transaction,
  userId: number,
  period: { credits: number; periodEnd: Date; reference: string },
): Promise<LedgerEntry[] | null> {
  checkCredits(period.credits, 0);
  const state = await lockOnce(tx, userId, 'period', period.reference);
  if (!state || state.recurringPeriodEnd?.getTime() !== period.periodEnd.getTime()) return null;
  if (state.recurringPeriodCredits === period.credits) return null;
  return changeCreditPeriod(tx, userId, state, period);
}

/** The recorded period's plan changed (startCreditPeriod `change`): its credits left move by the difference. */
async function changeCreditPeriod(
  tx: Transaction,
  userId: number,
  state: CreditState,
  period: { credits: number; periodEnd: Date; reference: string },
): Promise<LedgerEntry[]> {
  // What was used of the period counts against the new plan's credits, also what went past a
  // lower plan's (a downgrade that left 0, then an upgrade, must not hand the difference out again).
  const used = await periodCreditsUsed(tx, userId);
  const left = Math.max(
    0,
    Math.min(state.recurringCredits + period.credits - state.recurringPeriodCredits, period.credits - used),
  );
  const delta = left - state.recurringCredits;
  const entries: NewLedgerEntry[] = [];
  // Noted as a change: the period goes on (a signal spent in it still gets its credit back to it).
  const note = PLAN_CHANGE_NOTE;
  if (delta < 0) {
    entries.push({
      credits: delta,
      recurring: delta,
      cause: 'lapse',
      reference: period.reference,
      balanceAfter: 0,
      note,
    });
  }
  const added = Math.max(delta, 0);
  entries.push({
    credits: added,
    recurring: added,
    cause: 'period',
    reference: period.reference,
    balanceAfter: 0,
    note,
  });
  for (const entry of entries) entry.balanceAfter = state.credits + left;
  return writeCredits(
    tx,
    userId,
    {
      credits: state.credits,
      recurringCredits: left,
      period: { credits: period.credits, end: period.periodEnd },
      granted: added,
      spent: 0,
      // The low-credit mark is the new plan's period's, not the difference's.
      grant: period.credits,
    },
    entries,
  );
}

export async function endCreditPeriod(
  tx: Transaction,
  userId: number,
  reference: string | null = null,
): Promise<LedgerEntry | null> {
  const state = await lockOnce(tx, userId, 'lapse', reference);
  if (!state) return null;
  const [entry] = await writeCredits(
    tx,
    userId,
    {
      credits: state.credits,
      recurringCredits: 0,
      period: { credits: 0, end: state.recurringPeriodEnd },
      granted: 0,
      spent: 0,
    },
    lapse(state, reference),
  );
  return entry ?? null;
}

export type SpendResult = { ok: true; entry: LedgerEntry | null } | { ok: false };

export async function spendCredits(
  tx: Transaction,
  userId: number,
  credits: number,
  reference: string,
): Promise<SpendResult> {
  checkCredits(credits, 1);
  const state = await lockOnce(tx, userId, 'signal', reference);
  if (!state || state.unmetered) return { ok: true, entry: null };
  if (balanceOf(state) < credits) return { ok: false };
  const fromRecurring = Math.min(state.recurringCredits, credits);
  const [entry] = await writeCredits(
    tx,
    userId,
    {
      credits: state.credits - (credits - fromRecurring),
      recurringCredits: state.recurringCredits - fromRecurring,
      granted: 0,
      spent: credits,
    },
    [
      {
        credits: -credits,
        recurring: -fromRecurring,
        cause: 'signal',
        reference,
        balanceAfter: balanceOf(state) - credits,
      },
    ],
  );
  return { ok: true, entry: entry ?? null };
}

export async function reverseCredits(
  tx: Transaction,
  userId: number,
  credits: number,
  reference: string,
  periodEnd?: Date | null,
): Promise<LedgerEntry | null> {
  checkCredits(credits, 0);
  const state = await lockOnce(tx, userId, 'reversal', reference);
  if (!state) return null;
  // A plan period's credits are left only while it is the account's current period.
  const fromPeriod = periodEnd !== undefined;
  const current = periodEnd != null && state.recurringPeriodEnd?.getTime() === periodEnd.getTime();
  const left = fromPeriod ? (current ? state.recurringCredits : 0) : state.credits;
  const taken = Math.min(credits, left);
  // A pack's credits short in the account may be held by live signals: those are claimed (their
  // order failing does not give them back), so a refund takes each credit back once.
  const claimed = fromPeriod ? [] : await heldOneTimeSignals(tx, userId, credits - taken);
  await markClaimed(
    tx,
    claimed.map(({ id }) => id),
  );
  const held = claimed.length ? `, ${claimed.length} held by live signals` : '';
  const note = taken < credits ? `${credits} credits due, ${taken} left to take back${held}` : null;
  const claims: NewLedgerEntry[] = claimed.map(({ ref }) => ({
    credits: 0,
    recurring: 0,
    cause: 'reversal',
    reference: ref,
    balanceAfter: balanceOf(state) - taken,
    note: claimNote(reference),
  }));
  const [entry] = await writeCredits(
    tx,
    userId,
    {
      credits: fromPeriod ? state.credits : state.credits - taken,
      recurringCredits: fromPeriod ? state.recurringCredits - taken : state.recurringCredits,
      granted: 0,
      spent: 0,
    },
    [
      {
        credits: -taken,
        recurring: fromPeriod ? -taken : 0,
        cause: 'reversal',
        reference,
        balanceAfter: balanceOf(state) - taken,
        note,
      },
      ...claims,
    ],
  );
  return entry ?? null;
}

export async function restoreReversal(
  tx: Transaction,
  userId: number,
  reference: string,
  periodEnd?: Date | null,
): Promise<LedgerEntry | null> {
  const entry = await giveBack(tx, userId, reference, { taken: 'reversal', cause: 'restore', periodEnd });
  if (entry && periodEnd === undefined) await endClaims(tx, userId, reference);
  return entry;
}

/**
 * Ends the claims on held signals' credits of the reversal `reference` given back: a 'restore'
 * row each, with the credit its signal's failed order did not get back then.
 */
async function endClaims(tx: Transaction, userId: number, reference: string): Promise<void> {
  const claims = await claimsOf(tx, userId, reference);
  if (claims.length === 0) return;
  await unmarkClaimed(
    tx,
    claims.map(({ id }) => id),
  );
  const state = await lockCredits(tx, userId);
  let balance = balanceOf(state);
  const entries: NewLedgerEntry[] = claims.map(({ id, withheld }) => {
    balance += withheld;
    return { credits: withheld, recurring: 0, cause: 'restore', reference: id, balanceAfter: balance };
  });
  await writeCredits(
    tx,
    userId,
    { credits: balance - state.recurringCredits, recurringCredits: state.recurringCredits, granted: 0, spent: 0 },
    entries,
  );
}

export const refundCredits = (tx: Transaction, userId: number, reference: string) =>
  giveBack(tx, userId, reference, { taken: 'signal', cause: 'refund' });

/** The ledger note of a give-back that found part of what was taken lapsed (its plan period is over). */
export const lapseNote = (due: number, back: number) =>
  back < due ? `${due - back} of ${due} credits lapsed with their plan period` : null;

/**
 * Gives back, once, what the `taken` entry `reference` took, to the pools it came from: a `cause`
 * entry with the same reference. A signal's refund also takes back what it counted as spent.
 */
async function giveBack(
  tx: Transaction,
  userId: number,
  reference: string,
  { taken, cause, periodEnd }: { taken: 'signal' | 'reversal'; cause: 'refund' | 'restore'; periodEnd?: Date | null },
): Promise<LedgerEntry | null> {
  const state = await lockOnce(tx, userId, cause, reference);
  if (!state) return null;
  // Before the 'restore' cause (migration 0028) a give-back was written as a 'purchase' with the
  // reversal's reference, which no purchase of its own carries: such a row means it was given.
  if (cause === 'restore' && (await hasLedgerEntry(tx, 'purchase', reference))) return null;
  const entry = await findLedgerEntry(tx, taken, reference);
  if (!entry || entry.userId !== userId) return null;
  // A plan period's credits come back only while that period is still the current one and its
  // plan runs: those of a period since over, or of a plan ended since (endCreditPeriod keeps the
  // period end but sets its credits to 0), would have lapsed. A signal's period: the one current
  // when it was spent, over once a period started or the plan ended after it.
  const current =
    state.recurringPeriodCredits > 0 &&
    (taken === 'signal'
      ? !(await periodOverSince(tx, entry.id))
      : periodEnd != null && state.recurringPeriodEnd?.getTime() === periodEnd.getTime());
  const lapsed = (taken === 'signal' || periodEnd !== undefined) && !current;
  // Never more period credits than the period gives.
  const room = Math.max(state.recurringPeriodCredits - state.recurringCredits, 0);
  const backRecurring = lapsed ? 0 : Math.min(-entry.recurring, room);
  // A signal's one-time credit claimed by a pack's reversal (held-credits.repository.ts) stays taken.
  const kept = taken === 'signal' && (await isClaimed(tx, reference)) ? entry.recurring - entry.credits : 0;
  const back = -entry.credits + entry.recurring - kept + backRecurring;
  const [written] = await writeCredits(
    tx,
    userId,
    {
      credits: state.credits + back - backRecurring,
      recurringCredits: state.recurringCredits + backRecurring,
      granted: 0,
      // A refunded signal did not keep its credit (signalsSpent), even when that credit lapsed.
      spent: taken === 'signal' ? entry.credits : 0,
    },
    [
      {
        credits: back,
        recurring: backRecurring,
        cause,
        reference,
        balanceAfter: balanceOf(state) + back,
        note: kept > 0 ? KEPT_NOTE : lapseNote(-entry.credits, back),
      },
    ],
  );
  return written ?? null;
}
