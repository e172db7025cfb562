// The activity log's retention on a real PostgreSQL: months created ahead, whole months past the
// cutoff dropped, the rest before it deleted, entries in the retained window kept.
import type pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { createActionMonth } from '../../db/repositories/action-retention.repository.ts';
import { runRetention, startActivityRetention } from './retention.ts';

const DAY = 86_400_000;
const NOW = new Date('2031-07-15T12:00:00Z');

let t: TestApp;
let userId: number;
beforeAll(async () => {
  t = await startTestApp({ env: { ACTIVITY_RETENTION_DAYS: '365' } });
  userId = (await insertTestUser(t.services, 'retention@example.com')).id;
});
afterAll(() => t?.close());

const sql = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  t.services.db.$client.query<T>(text, values).then((r) => r.rows);

async function insertAt(at: Date, code: string, user = userId): Promise<void> {
  await sql('insert into actions (user_id, code, address, created_at) values ($1, $2, null, $3)', [user, code, at]);
}

/** Where each entry lives: its partition's name, by code. */
async function partitions(user = userId): Promise<Record<string, string>> {
  const rows = await sql<{ code: string; part: string }>(
    'select code, tableoid::regclass::text as part from actions where user_id = $1',
    [user],
  );
  return Object.fromEntries(rows.map((r) => [r.code, r.part]));
}

const monthExists = async (name: string) =>
  (await sql<{ found: string | null }>('select to_regclass($1)::text as found', [name]))[0]?.found === name;

describe('activity retention', () => {
  it('moves entries out of the default partition when their month is created', async () => {
    // A user and months of its own, after the retention pass's window (which would count them).
    const { id: user } = await insertTestUser(t.services, 'months@example.com');
    await insertAt(new Date('2032-03-10T00:00:00Z'), 'March2032', user);
    await insertAt(new Date('2032-02-29T23:59:59Z'), 'February2032', user);
    expect(await partitions(user)).toEqual({ March2032: 'actions_default', February2032: 'actions_default' });
    // Any instant of the month names it; months are UTC.
    expect(await createActionMonth(t.services.db.$client, new Date('2032-03-31T23:00:00Z'))).toBe(true);
    expect(await createActionMonth(t.services.db.$client, new Date('2032-03-01T00:00:00Z'))).toBe(false);
    expect(await partitions(user)).toEqual({ March2032: 'actions_2032_03', February2032: 'actions_default' });
  });

  it('creates the coming months, drops the months past the cutoff, deletes the rest before it', async () => {
    const cutoff = new Date(NOW.getTime() - 365 * DAY); // 2030-07-15T12:00Z
    // A whole month past the cutoff, and an entry before it in the default partition.
    await insertAt(new Date('2030-03-10T00:00:00Z'), 'March2030');
    await insertAt(new Date('2030-02-28T23:59:59Z'), 'February2030');
    expect(await createActionMonth(t.services.db.$client, new Date('2030-03-10T00:00:00Z'))).toBe(true);
    await insertAt(new Date(cutoff.getTime() - 2 * DAY), 'July2030Old');
    await insertAt(new Date(cutoff.getTime() + 2 * DAY), 'July2030Kept');
    await insertAt(new Date('2031-07-01T00:00:00Z'), 'July2031');
    expect(await createActionMonth(t.services.db.$client, cutoff)).toBe(true);

    // March 2030, and the months the migration made around the day the test database was made.
    const pastMonths = await sql<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'actions'::regclass and c.relname ~ '^actions_[0-9]{4}_[0-9]{2}$' and c.relname < 'actions_2030_07'`,
    );
    expect(pastMonths.map((m) => m.name)).toContain('actions_2030_03');
    const pass = await runRetention(t.services, NOW);
    expect(pass).toEqual({ monthsCreated: 3, monthsDropped: pastMonths.length, rowsDeleted: 2 });
    for (const month of ['actions_2031_07', 'actions_2031_08', 'actions_2031_09'])
      expect(await monthExists(month)).toBe(true);
    expect(await monthExists('actions_2030_03')).toBe(false);
    // February 2030 sat in the default partition: deleted row by row; July 2030 keeps its newer half.
    expect(await partitions()).toEqual({ July2030Kept: 'actions_2030_07', July2031: 'actions_2031_07' });

    expect(await runRetention(t.services, NOW)).toEqual({ monthsCreated: 0, monthsDropped: 0, rowsDeleted: 0 });
  });

  it('leaves the pass to the instance holding the lock', async () => {
    const holder = await t.services.db.$client.connect();
    try {
      await holder.query('select pg_advisory_lock(7301365)');
      expect(await runRetention(t.services, NOW)).toBeNull();
    } finally {
      await holder.query('select pg_advisory_unlock(7301365)');
      holder.release();
    }
  });

  it('a pass told to stop (the server stopping) ends after the batch in hand', async () => {
    const { id: user } = await insertTestUser(t.services, 'stopping@example.com');
    const cutoff = NOW.getTime() - 365 * DAY;
    for (const hours of [1, 2, 3]) await insertAt(new Date(cutoff - hours * 3_600_000), `Old${hours}`, user);
    const stopping = new AbortController();
    stopping.abort();
    expect(await runRetention(t.services, NOW, { batch: 1, stopping: stopping.signal })).toMatchObject({
      rowsDeleted: 1,
    });
    expect(Object.keys(await partitions(user))).toHaveLength(2);
    // The next pass (the next start) deletes the rest.
    expect(await runRetention(t.services, NOW, { batch: 1 })).toMatchObject({ rowsDeleted: 2 });
    expect(await partitions(user)).toEqual({});
  });

  it('a failed pass (the database down) is tried again soon, not an hour later', async () => {
    const pool = t.services.db.$client;
    let failing = true;
    let tries = 0;
    const flaky = {
      connect: () => {
        tries += 1;
        return failing ? Promise.reject(new Error('database unavailable')) : pool.connect();
      },
    } as unknown as pg.Pool;
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
    const db = { $client: flaky } as unknown as typeof t.services.db;
    const stop = startActivityRetention({ db, config: t.services.config, log }, { retryMs: 20 });
    try {
      await vi.waitFor(() => expect(tries).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
      expect(lines[0]).toBe('activity retention pass failed');
      failing = false;
      await vi.waitFor(() => expect(lines).toContain('activity retention pass failed: working again'), {
        timeout: 5_000,
      });
    } finally {
      await stop();
    }
  });
});
