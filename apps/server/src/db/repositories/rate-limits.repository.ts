// Shared rate-limit counters (rate_limits): one row per key and fixed window. A limit weighs the
// previous window's hits by how much of it the sliding window still covers, so it behaves like
// a sliding window without storing each hit. Each statement is atomic on its own (the row lock
// of the upsert), so any number of instances count one limit together.
import type { Queryable } from './signals.repository.ts';

export interface Window {
  key: string;
  /** floor(now / window length). */
  bucket: number;
  /** The share of the previous window the sliding window still covers (0 to 1). */
  previousWeight: number;
  /** When this window's row stops counting (the end of the next window). */
  expiresAt: Date;
}

/** Counts one hit if it fits under `limit`; false (and nothing counted) when it does not. */
export async function takeRateHit(db: Queryable, w: Window, limit: number): Promise<boolean> {
  const result = await db.query({
    name: 'rate_limits_take',
    text: `with previous as (
        select coalesce(max(hits), 0) * $3::float8 as weighted from rate_limits where key = $1 and bucket = $2 - 1)
      insert into rate_limits as r (key, bucket, hits, expires_at)
      select $1, $2, 1, $5 from previous where previous.weighted + 1 <= $4
      on conflict (key, bucket) do update set hits = r.hits + 1
        where r.hits + 1 + (select weighted from previous) <= $4
      returning r.hits`,
    values: [w.key, w.bucket, w.previousWeight, limit, w.expiresAt],
  });
  return (result.rowCount ?? 0) > 0;
}

/** The hits the sliding window holds now. */
export async function countRateHits(db: Queryable, w: Window): Promise<number> {
  const result = await db.query<{ hits: number }>({
    name: 'rate_limits_count',
    text: `select coalesce(sum(case when bucket = $2 then hits else hits * $3::float8 end), 0)::float8 as hits
      from rate_limits where key = $1 and bucket in ($2, $2 - 1)`,
    values: [w.key, w.bucket, w.previousWeight],
  });
  return Number(result.rows[0]?.hits ?? 0);
}

/** The hits of the window's bucket and of the one before (unweighted). */
export async function rateHitsByBucket(db: Queryable, w: Window): Promise<{ current: number; previous: number }> {
  const result = await db.query<{ bucket: string; hits: number }>({
    name: 'rate_limits_by_bucket',
    text: 'select bucket::text, hits from rate_limits where key = $1 and bucket in ($2::bigint, $2::bigint - 1)',
    values: [w.key, w.bucket],
  });
  const hitsOf = (bucket: number) => result.rows.find((row) => Number(row.bucket) === bucket)?.hits ?? 0;
  return { current: hitsOf(w.bucket), previous: hitsOf(w.bucket - 1) };
}

/** Counts one hit without a limit (failures counted after the fact). */
export async function addRateHit(db: Queryable, w: Window): Promise<void> {
  await db.query({
    name: 'rate_limits_add',
    text: `insert into rate_limits as r (key, bucket, hits, expires_at) values ($1, $2, 1, $3)
      on conflict (key, bucket) do update set hits = r.hits + 1`,
    values: [w.key, w.bucket, w.expiresAt],
  });
}

/** Takes back one hit of the window's bucket (one counted before it was judged, then let off). */
export async function removeRateHit(db: Queryable, w: Window): Promise<void> {
  await db.query({
    name: 'rate_limits_remove',
    text: 'update rate_limits set hits = hits - 1 where key = $1 and bucket = $2 and hits > 0',
    values: [w.key, w.bucket],
  });
}

/** Forgets every window of a key. */
export async function resetRateHits(db: Queryable, key: string): Promise<void> {
  await db.query({ name: 'rate_limits_reset', text: 'delete from rate_limits where key = $1', values: [key] });
}

/** Removes rows that can no longer count; returns how many. */
export async function sweepRateHits(db: Queryable, now: Date): Promise<number> {
  const result = await db.query({ text: 'delete from rate_limits where expires_at < $1', values: [now] });
  return result.rowCount ?? 0;
}
