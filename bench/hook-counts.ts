// Micro-benchmark of the maxOrdersPerMinute / maxOrdersPerDay count on the hook path
// (db/repositories/hook-counts.repository.ts), on its own embedded PostgreSQL: statements and
// time per signal for a count taken, and for a refused one — one statement now, where the refusal
// used to read the reached limit in a second one (emulated here as `two statements`).
// `node bench/hook-counts.ts` (BENCH_COUNTS=<n> signals per case, default 2000). Not part of `npm run bench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { runMigrations } from '../apps/server/src/db/migrate.ts';
import { releaseHookCount, takeHookCount } from '../apps/server/src/db/repositories/hook-counts.repository.ts';

const N = Number(process.env.BENCH_COUNTS ?? 2000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-counts-'));
fs.chmodSync(dir, 0o755); // PostgreSQL may run as another user (as in the tests' global setup)
const embedded = await startEmbeddedPostgres(dir, pino({ level: 'warn' }));
const pool = new pg.Pool({ connectionString: embedded.url, max: 1 });
let statements = 0;
const counted = {
  query: ((...args: Parameters<pg.Pool['query']>) => {
    statements += 1;
    return pool.query(...args);
  }) as pg.Pool['query'],
};

async function hook(): Promise<number> {
  const tag = Math.random().toString(36).slice(2);
  const { rows } = await pool.query<{ id: number }>(
    `with u as (insert into users (key, email) values ($1, $1 || '@bench.example') returning id),
      c as (insert into connectors (key, user_id, provider_name) select $1, id, 'paper' from u returning id, user_id)
     insert into hooks (key, short_key, user_id, connector_id, account_id, name)
     select $1, $1, user_id, id, 'PA-1', 'bench' from c returning id`,
    [tag],
  );
  return Number(rows[0]?.id);
}

async function measure(name: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 50; i++) await run(); // warm-up: plans prepared, caches filled
  statements = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await run();
  const us = Number(process.hrtime.bigint() - start) / 1000 / N;
  console.log(`| ${name} | ${(statements / N).toFixed(2)} | ${us.toFixed(0)} µs |`);
}

try {
  await runMigrations(pool);
  const taking = await hook();
  const refusing = await hook();
  const limits = { perMinute: null, perDay: 1 };
  await takeHookCount(pool, refusing, limits);
  console.log(`${N} signals per case, one connection, ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(1)}`);
  console.log('| case | statements per signal | time per signal |\n|---|---|---|');
  await measure('count taken (and given back)', async () => {
    const taken = await takeHookCount(counted, taking, { perMinute: null, perDay: 1_000_000_000 });
    // The give-back (uncounted) keeps the row small; on the hook path only repeats give back.
    if ('at' in taken) await releaseHookCount(pool, taking, taken.at, 'benchNotStored000001');
  });
  await measure('refused, one statement (now)', () => takeHookCount(counted, refusing, limits));
  await measure('refused, two statements (before)', async () => {
    await takeHookCount(counted, refusing, limits);
    statements += 1;
    await pool.query('select day_count from hook_order_counts where hook_id = $1', [refusing]);
  });
} finally {
  await pool.end();
  await embedded.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
