// The rules of delivery, apart from the I/O: when to retry, when an email flood becomes a digest.
import type { ClaimedDelivery, DigestState } from '../../db/repositories/notification-deliveries.repository.ts';

/**
 * The wait before the next attempt after `attempts` failed ones (1 after the first), or null to
 * give up: the schedule's nth entry (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h: seven attempts
 * over about 17.6 hours).
 */
export function retryDelay(schedule: readonly number[], attempts: number): number | null {
  return schedule[attempts - 1] ?? null;
}

/**
 * After a failed attempt of `delivery`: the wait before the next, or null to give up. A disabled
 * setting's delivery (due only through a re-send) gets the one attempt asked for: retrying it
 * through the schedule would keep calling a receiver that failed for 3 days.
 */
export function nextRetry(
  schedule: readonly number[],
  delivery: Pick<ClaimedDelivery, 'attempts' | 'isEnabled'>,
): number | null {
  return delivery.isEnabled ? retryDelay(schedule, delivery.attempts + 1) : null;
}

/** More than this many mails of one kind for one setting within the window become a digest. */
export const DIGEST_THRESHOLD = 5;
export const DIGEST_WINDOW_MS = 60_000;
/** A digest takes at most this many waiting events (a longer flood: the next digest a minute later). */
export const DIGEST_MAX_EVENTS = 5_000;
/** Of which a digest mail lists this many, then says how many more. */
export const DIGEST_LISTED = 100;

export type DigestDecision = { kind: 'single' } | { kind: 'digest' } | { kind: 'wait'; until: Date };

/**
 * For the due email deliveries of one setting and event type: a mail each while at most
 * DIGEST_THRESHOLD arrived within the window; beyond that the mails wait and go out as one
 * digest a window after the oldest waiting one (and never sooner than a window after the last
 * digest), so a flood costs at most one mail a minute. Mails that waited for a digest
 * (`collected`) go as one, however few they are by then.
 */
export function digestDecision(state: DigestState, due: number, collected = false): DigestDecision {
  if (!collected && state.arrived <= DIGEST_THRESHOLD && due <= DIGEST_THRESHOLD) return { kind: 'single' };
  const oldest = (state.oldestPendingAt ?? state.now).getTime();
  const lastDigest = state.lastDigestAt ? state.lastDigestAt.getTime() : Number.NEGATIVE_INFINITY;
  const at = Math.max(oldest + DIGEST_WINDOW_MS, lastDigest + DIGEST_WINDOW_MS);
  return state.now.getTime() >= at ? { kind: 'digest' } : { kind: 'wait', until: new Date(at) };
}

/**
 * How many of a kind's due mails (oldest first) still go one by one when the rule above says
 * digest: what DIGEST_THRESHOLD leaves after the `earlier` mails of the window, so the first of
 * a burst are told at once, as they are when the same events come one at a time; the rest wait
 * for the digest. None of mails that already waited for a digest (`collected`).
 */
export function singlesFirst(earlier: number, collected: boolean): number {
  return collected ? 0 : Math.max(0, DIGEST_THRESHOLD - earlier);
}

/** A webhook endpoint failing for this long is disabled (and its user told by email). */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
export const DISABLED_REASON = 'Deliveries failed for 3 days';
/**
 * A failure this long after the previous one starts a new streak: the endpoint was not seen
 * failing in between (longer than any wait of the retry schedule, so a receiver down while
 * events keep coming stays one streak).
 */
export const STREAK_BREAK_MS = 24 * 60 * 60 * 1000;
