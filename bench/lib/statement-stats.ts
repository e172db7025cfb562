// BENCH_PG_STATS=1: the statements PostgreSQL spent most time on over the run, planning and
// executing (pg_stat_statements, loaded by the server's PG_STAT_STATEMENTS=true). This is how the
// paper broker's write was found to cost more to plan than to run (docs/SCALING.md).
import type pg from 'pg';

export async function printStatementStats(pool: pg.Pool, top = 15): Promise<void> {
  await pool.query('create extension if not exists pg_stat_statements');
  const { rows } = await pool.query<Record<string, string>>(
    `select calls, round(total_plan_time::numeric, 1) as plan_ms, round(total_exec_time::numeric, 1) as exec_ms,
      round(((total_plan_time + total_exec_time) / greatest(calls, 1))::numeric, 3) as per_call_ms,
      round(max_exec_time::numeric, 2) as max_exec_ms, round(stddev_exec_time::numeric, 3) as sd_exec_ms, rows, wal_bytes,
      left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as query
    from pg_stat_statements order by total_plan_time + total_exec_time desc limit $1`,
    [top],
  );
  console.log('PostgreSQL statements by time (plan + exec):');
  console.table(rows);
}
