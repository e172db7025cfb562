// A session advisory lock held on one pooled connection while `work` runs (across its
// transactions): one holder at a time across instances. A connection whose unlock fails is
// closed instead of going back to the pool (closing it releases the lock).
import type pg from 'pg';

type Work<T> = (client: pg.PoolClient) => Promise<T>;

/** Runs `work` holding the advisory lock `keys` (one or two integers), waiting for it. */
export async function withSessionLock<T>(pool: pg.Pool, keys: readonly number[], work: Work<T>): Promise<T> {
  const held = await holding(pool, keys, 'pg_advisory_lock', work);
  if (!held) throw new Error('pg_advisory_lock returned without the lock');
  return held.value;
}

/** Runs `work` holding the advisory lock `keys`; null at once when another session holds it. */
export async function trySessionLock<T>(pool: pg.Pool, keys: readonly number[], work: Work<T>): Promise<T | null> {
  return (await holding(pool, keys, 'pg_try_advisory_lock', work))?.value ?? null;
}

async function holding<T>(
  pool: pg.Pool,
  keys: readonly number[],
  lock: 'pg_advisory_lock' | 'pg_try_advisory_lock',
  work: Work<T>,
): Promise<{ value: T } | undefined> {
  const args = keys.map((_, i) => `$${i + 1}`).join(', ');
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // pg_advisory_lock returns void: it answers once the lock is held.
    const { rows } = await client.query<{ locked: unknown }>(`select ${lock}(${args}) as locked`, [...keys]);
    if (lock === 'pg_try_advisory_lock' && rows[0]?.locked !== true) return undefined;
    try {
      return { value: await work(client) };
    } finally {
      await client.query(`select pg_advisory_unlock(${args})`, [...keys]).catch((error: Error) => {
        broken = error;
      });
    }
  } catch (error) {
    broken ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}
