// maxOrdersPerMinute / maxOrdersPerDay: a signal that passed every other rule is counted before it
// is stored (one statement, only for hooks with such a limit, which also says which limit a
// refused one reached), and given back when storing did not make it a new signal (a repeat, no
// credit, a failure). The signal is stored with the instant of its count: one the broker then
// rejected (or that was never sent, or that reconciliation finds so later) gives back its day's
// count only, once, with the write of that outcome (recordSignalOutcomes): the day's orders are
// those placed, the minute's every one sent. Counted in PostgreSQL, so two server instances share
// the limits. The day starts at the settings' dayStartsAt (midnight when none is given) in their
// dayTimeZone (UTC when none is given).

import { releaseHookCount, takeHookCount } from '../../../db/repositories/hook-counts.repository.ts';
import type { Queryable } from '../../../db/repositories/signals.repository.ts';
import type { RuleRefusal } from './check.ts';
import type { CompiledRules } from './compile.ts';

/** A taken count: give it back unless the signal was stored as new. */
export interface TakenCount {
  /** When it was taken, stored with the signal: its day's count goes back with a rejection. */
  at: string;
  /** Gives it back: the signal `signalId` was not stored as new (unless it was after all). */
  release(signalId: string): Promise<void>;
}

const INT_MAX = 2_147_483_647;

export async function takeCount(
  db: Queryable,
  hookId: number,
  rules: CompiledRules,
): Promise<TakenCount | RuleRefusal | undefined> {
  if (rules.perMinute === undefined && rules.perDay === undefined) return undefined;
  // A maximum stored before saving checked it (settings.ts) may be past the column's int.
  const perDay = rules.perDay === undefined ? null : Math.min(rules.perDay, INT_MAX);
  const timeZone = rules.settings.dayTimeZone ?? 'UTC';
  const day = { timeZone, startsAt: rules.settings.dayStartsAt ?? '00:00' };
  const limits = { perMinute: rules.perMinute ?? null, perDay, ...day };
  const taken = await takeHookCount(db, hookId, limits);
  if ('at' in taken) {
    return { at: taken.at, release: (signalId) => releaseHookCount(db, hookId, taken.at, signalId, day) };
  }
  return taken.reached === 'day'
    ? {
        rule: 'maxOrdersPerDay',
        message: `maxOrdersPerDay: this webhook's ${limits.perDay} orders today (${timeZone}${rules.settings.dayStartsAt ? `, from ${rules.settings.dayStartsAt}` : ''}) are reached`,
      }
    : {
        rule: 'maxOrdersPerMinute',
        message: `maxOrdersPerMinute: this webhook's ${limits.perMinute} orders in the last minute are reached`,
      };
}

export const isRefusal = (value: unknown): value is RuleRefusal =>
  typeof value === 'object' && value !== null && 'rule' in value && 'message' in value;
