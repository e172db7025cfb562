// A webhook's health for the trader (issue #21): calls since a moment (the start of the trader's
// day, which only the browser knows; by default the start of the UTC day) and their error rate.
import { hookHealth } from '../../db/repositories/hook-health.repository.ts';
import type { HookView } from '../../db/repositories/hooks.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';

const DAY_MS = 86_400_000;
/**
 * A browser clock ahead of the server's by this much is taken as the server's now: just after the
 * trader's midnight, the start of their day may be a moment in the server's future.
 */
const CLOCK_SKEW_MS = 10 * 60_000;

export interface HookHealth {
  /** Calls since `since`: stored signals and refused calls. */
  calls: number;
  /** Of those, rejected, failed or refused. */
  errors: number;
  /** errors / calls, from 0 to 1; null without calls. */
  errorRate: number | null;
}

export async function getHookHealth(
  services: Services,
  hook: HookView,
  since: number | null | undefined,
  now = Date.now(),
): Promise<HookHealth> {
  const from = since ?? now - (now % DAY_MS);
  // A day or so back is what the screens ask; further would scan a long stretch of activity.
  if (!Number.isFinite(from) || from > now + CLOCK_SKEW_MS || now - from > 2 * DAY_MS) {
    throw new AppError('VALIDATION', 'since must be within the last 48 hours', { field: 'since' });
  }
  const row = await hookHealth(services.db, hook, Math.min(from, now));
  const calls = row.signals + row.refused;
  const errors = row.errors + row.refused;
  return { calls, errors, errorRate: calls === 0 ? null : errors / calls };
}
