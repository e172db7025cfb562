// The fill follower's SQL (modules/signals/follow-fills.ts): resting live orders ('accepted')
// claimed with reconciliation's lease columns (the two never want the same rows: reconciliation
// takes 'placing' and 'unknown' ones), and the next look-up scheduled with a back-off.
import type { ClaimedSignal } from './signal-reconcile.repository.ts';
import type { Queryable } from './signals.repository.ts';

/** Durations that outlive the day; the others are followed for a day from placement. */
export const LONG_DURATIONS = ['gtc', 'gtd', 'gtt', 'gtw', 'gtm', 'aon'];

export interface FollowClaim {
  owner: string;
  leaseMs: number;
  /** Not before this age: the answer at placement was just read. */
  minAgeMs: number;
  /** How long an order is followed: a day order, and any other one (capped). */
  dayMs: number;
  longMs: number;
  /** Orders nobody wants told about are looked at again after this (a setting may come). */
  idleMs: number;
  limit: number;
}

/**
 * Claims due resting orders of live signals (not paper's, which tells its own fills) whose user
 * wants order.filled or order.rejected (a broker may reject an order it accepted) from that
 * connector account: leased to `owner`, attempts counted (the fence
 * of the write). In the same statement, orders past their horizon are dropped for good
 * (lease_until = infinity) and those no setting wants are put off by `idleMs`. `scanned` counts
 * them all (a full batch: more may be due).
 */
export async function claimRestingSignals(
  db: Queryable,
  o: FollowClaim,
): Promise<{ claimed: ClaimedSignal[]; scanned: number }> {
  const { rows } = await db.query<ClaimedSignal>({
    name: 'signals_claim_resting',
    text: `with due as (
        select s.id,
          s.created_at < now() - case when s."order"->>'duration' = any($7::text[]) then $6::float8 else $5::float8 end
            * interval '1 millisecond' as expired,
          exists (select 1 from notifications n where n.user_id = s.user_id and n.is_enabled and n.type in (1, 2)
            and n.connector_id = s.connector_id and n.account_id = s.account_id
            and (n.metadata->'events' is null or n.metadata->'events' ?| array['order.filled', 'order.rejected'])) as wanted
        from signals s
        where s.status = 'accepted' and not s.is_test and s.provider_name <> 'paper'
          and (s.lease_until is null or s.lease_until < now())
          and s.created_at < now() - $3 * interval '1 millisecond'
        order by s.lease_until nulls first limit $8
        for update of s skip locked
      )
      update signals s set
        lease_owner = case when d.wanted and not d.expired then $1 else s.lease_owner end,
        lease_until = case when d.expired then 'infinity'::timestamptz
          when not d.wanted then now() + $4 * interval '1 millisecond'
          else now() + $2 * interval '1 millisecond' end,
        attempts = s.attempts + case when d.wanted and not d.expired then 1 else 0 end
      from due d where s.id = d.id
      returning s.id, s.connector_id, s.provider_name, s.account_id, s.status, s.broker_order_id, s."order",
        (extract(epoch from s.created_at) * 1000)::float8 as stored_at, s.attempts,
        d.wanted and not d.expired as follow`,
    values: [o.owner, o.leaseMs, o.minAgeMs, o.idleMs, o.dayMs, o.longMs, LONG_DURATIONS, o.limit],
  });
  const claimed = rows.filter((row) => (row as ClaimedSignal & { follow: boolean }).follow);
  return { claimed, scanned: rows.length };
}

/**
 * Still resting: the next look-up after a quarter of the order's age, between `minMs` and
 * `maxMs` (often at first, rarely for an order resting for days), if the claim is still ours.
 */
export async function scheduleNextLookups(
  db: Queryable,
  owner: string,
  claims: ReadonlyArray<{ id: string; attempt: number }>,
  minMs: number,
  maxMs: number,
): Promise<void> {
  if (claims.length === 0) return;
  await db.query({
    name: 'signals_follow_next',
    text: `update signals s set lease_until = now() + least(greatest(
          extract(epoch from now() - s.created_at) * 250, $3), $4) * interval '1 millisecond'
      from unnest($2::text[], $5::int[]) as c(id, attempt)
      where s.id = c.id and s.lease_owner = $1 and s.attempts = c.attempt`,
    values: [owner, claims.map((c) => c.id), minMs, maxMs, claims.map((c) => c.attempt)],
  });
}
