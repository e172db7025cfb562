// `npm run bench`: the hook path under load, on loopback, in one run on one machine.
// Starts the real server (fresh DATA_DIR, embedded PostgreSQL, paper broker, HOOK_TIMINGS=true,
// LOG_LEVEL=warn, rate limits off), makes its own trader through the public API (sign-up, the
// emailed link, a paper connection, a live and a test hook; credits topped up by SQL), and a
// bare Fastify route in a separate process as the yardstick. Then for each target: fixed rates
// of 100, 500 and 1,000 signals/s and saturation, our own time by phase from the
// server's timings, CPU and RSS from /proc; and a burst of 10,000 at once. Fixed rates are
// paced evenly (lib/paced.ts), saturation is autocannon's 50 connections as fast as they go. Writes
// bench/results/latest.{json,md}. BENCH_SECONDS shortens or lengthens each phase (default 8).
// BENCH_RATES=500,max: only these load phases (none: bursts only). BENCH_RESTING=0,1000,10000:
// the live hook's phases again with that many resting limit orders at the paper broker.
// BENCH_NOTIFY=1: with notification settings (a webhook and an email, all events).
// BENCH_INSTANCES=2: then the test and live hooks at saturation on two servers sharing the first
// one's database, the connections split evenly (lib/two-instances.ts).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type LiveServer, removeDataDir, startLiveServer } from '../apps/server/test/faults/live-server.ts';
import { createTrader } from '../apps/server/test/faults/trader.ts';
import { postmasterPid } from '../apps/server/test/server-process.ts';
import { startSmtpSink } from '../apps/server/test/smtp-sink.ts';
import { type FirstLoad, measureFirstLoad } from './lib/first-load.ts';
import { type BurstResult, type PhaseResult, runBurst, runSaturation } from './lib/load.ts';
import { loadAverage, machine } from './lib/machine.ts';
import { listenToNotifications, type NotificationReceiver } from './lib/notify.ts';
import { runPaced } from './lib/paced.ts';
import { type ProcStats, sampleProcesses } from './lib/proc-stats.ts';
import { renderMarkdown } from './lib/report.ts';
import { restUpTo } from './lib/resting.ts';
import { printStatementStats } from './lib/statement-stats.ts';
import { type Timings, takeTimings } from './lib/timings.ts';
import { runSaturationOnBoth, startSecondInstance } from './lib/two-instances.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RATES = (process.env.BENCH_RATES ?? '100,500,1000,max')
  .split(',')
  .filter((r) => r !== '' && r !== 'none')
  .map((r) => (r === 'max' ? undefined : Number(r)));
const CONNECTIONS = 50;
const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const BURST_CONNECTIONS = 1_000;
/** BENCH_NOTIFY=1: the trader has a webhook and an email setting for all events (lib/notify.ts). */
const NOTIFY = process.env.BENCH_NOTIFY === '1';
/** BENCH_PG_STATS=1: PostgreSQL's own time per statement (pg_stat_statements), printed at the end. */
const PG_STATS = process.env.BENCH_PG_STATS === '1';
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
/** Every instance opens the connector's secrets with the same key. */
const SECRETS_KEY = Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))).toString('base64');
const RESULTS = path.join(import.meta.dirname, 'results');
/** BENCH_TARGETS=test,live: only these targets (while working on one; the report is partial). */
const ONLY = (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean);
/** Resting orders at the paper broker during the live hook's phases, ascending (they only add up). */
const RESTING = process.env.BENCH_RESTING
  ? process.env.BENCH_RESTING.split(',')
      .map(Number)
      .sort((a, b) => a - b)
  : undefined;

export type Target = 'bare' | 'healthz' | 'test' | 'live';

export interface PhaseRecord {
  target: Target;
  rate: number | 'max';
  /** Open orders at the paper broker during a live phase (BENCH_RESTING). */
  resting?: number;
  /** Servers sharing the load and one database (BENCH_INSTANCES). */
  instances?: number;
  load: PhaseResult;
  proc: ProcStats;
  timings: Timings | null;
  loadAverage: [number, number, number];
}

export interface BurstRecord extends BurstResult {
  target: Target;
  proc: ProcStats;
  timings: Timings | null;
}

export interface BenchResults {
  startedAt: string;
  durationS: number;
  machine: ReturnType<typeof machine>;
  loadAverageBefore: [number, number, number];
  loadAverageAfter: [number, number, number];
  secondsPerPhase: number;
  connections: number;
  phases: PhaseRecord[];
  bursts: BurstRecord[];
  /** The sign-in page's cold load in Chromium (null with BENCH_FIRST_LOAD=0). */
  firstLoad: FirstLoad | null;
}

let counter = 0;
const runId = Date.now().toString(36);
/**
 * BENCH_RULES=1: both hooks get risk controls of every kind the hot path runs (address, window,
 * signal time, symbol map and list, quantity and notional, the shared order counts: one more
 * statement per signal: maxOrdersPerDay; maxOrdersPerMinute keeps up to its limit of instants
 * and is left out), set so that none refuses; signals carry a time and a limit price.
 */
const RULES = process.env.BENCH_RULES === '1';
const BENCH_RULES = {
  maxLagSeconds: 86_400,
  sourceAddresses: ['127.0.0.0/8', '::1/128', 'tradingview'],
  symbols: ['AAPL'],
  symbolMap: { APPLE: 'AAPL' },
  maxQuantity: 10,
  maxNotional: 1_000_000,
  maxOrdersPerDay: 1_000_000_000,
  tradingWindows: [
    { days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], from: '00:00', to: '24:00', timeZone: 'UTC' },
  ],
};
const body = () =>
  JSON.stringify({
    symbol: RULES ? 'APPLE' : 'AAPL',
    action: 'buy',
    quantity: 1,
    client_id: `bench-${runId}-${++counter}`,
    ...(RULES ? { type: 'limit', limit_price: 500, time: new Date().toISOString() } : {}),
  });

async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk) => resolve(String(chunk).trim()));
    child.once('exit', () => reject(new Error('the bare server exited')));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** The hooks at saturation on two servers sharing one database (BENCH_INSTANCES=2). */
async function runTwoInstances(
  server: LiveServer,
  targets: Array<{ target: Target; path: string; pid: number }>,
  phases: PhaseRecord[],
  smtpUrl: string,
): Promise<void> {
  const second = await startSecondInstance(server, { SMTP_URL: smtpUrl, SECRETS_KEY });
  try {
    for (const t of targets.filter((target) => target.target === 'test' || target.target === 'live')) {
      const urls: [string, string] = [server.url, second.url];
      await runPaced({ url: second.url, path: t.path, rate: 200, seconds: 2, connections: 10, body });
      const proc = sampleProcesses(t.pid, postmasterPid(server.dataDir) ?? undefined);
      const phase = { url: server.url, path: t.path, seconds: SECONDS, connections: CONNECTIONS, body };
      const load = await runSaturationOnBoth(urls, phase);
      const record: PhaseRecord = {
        target: t.target,
        rate: 'max',
        instances: 2,
        load,
        proc: proc.stop(),
        timings: null,
        loadAverage: loadAverage(),
      };
      phases.push(record);
      console.log(
        `${t.target} on 2 instances @ max: ${load.throughput}/s p50 ${load.p50Ms} p99 ${load.p99Ms} ms ${JSON.stringify(load.statusCounts)}`,
      );
    }
  } finally {
    await second.stop();
    await removeDataDir(second.dataDir);
  }
}

async function main() {
  const started = Date.now();
  const loadAverageBefore = loadAverage();
  console.log(`machine: ${JSON.stringify(machine())}, load average ${loadAverageBefore.join(' ')}`);
  // The server serves the built web app; the first-load figure needs it current.
  execFileSync(process.execPath, [path.join(import.meta.dirname, '../scripts/build-web-if-stale.mjs')], {
    stdio: 'inherit',
  });
  const smtp = await startSmtpSink();
  // BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops (--cpu-prof).
  const profile = process.env.BENCH_PROFILE;
  const server = await startLiveServer({
    SMTP_URL: smtp.url,
    SECRETS_KEY,
    ...(PG_STATS ? { PG_STAT_STATEMENTS: 'true' } : {}),
    ...(NOTIFY ? { ALLOW_PRIVATE_WEBHOOKS: 'true' } : {}),
    ...(profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profile)}` } : {}),
  });
  console.log(`server started: RSS ${sampleProcesses(server.pid).stop().serverRssMb} MB`);
  const bare = await startBare();
  const phases: PhaseRecord[] = [];
  const bursts: BurstRecord[] = [];
  let firstLoad: FirstLoad | null = null;
  let notifications: NotificationReceiver | undefined;
  try {
    const trader = await createTrader(server.url, smtp, server.sql(), { balance: 100_000_000 });
    const [live, test] = trader.hooks as [string, string];
    if (RULES) {
      // Written as hookUpdate would (validated there; here the settings are fixed), and every
      // instance told through hook_changed.
      await server
        .sql()
        .query('update hooks set rules = $1 where short_key = any($2)', [JSON.stringify(BENCH_RULES), [live, test]]);
      await server.sql().query(`select pg_notify('hook_changed', k) from unnest($1::text[]) k`, [[live, test]]);
      console.log(`risk controls on both hooks: ${JSON.stringify(BENCH_RULES)}`);
    }
    notifications = NOTIFY ? await listenToNotifications(server.url, trader) : undefined;
    const pgPid = postmasterPid(server.dataDir) ?? undefined;
    const all: Array<{
      target: Target;
      url: string;
      path: string;
      pid: number;
      timed: boolean;
      method?: 'GET';
    }> = [
      { target: 'bare', url: bare.url, path: '/hook/x', pid: bare.child.pid ?? 0, timed: false },
      // The same server process as the hooks, in the same run: the issue's yardstick (issue #20).
      { target: 'healthz', url: server.url, path: '/healthz', pid: server.pid, timed: false, method: 'GET' },
      { target: 'test', url: server.url, path: `/hook/${test}`, pid: server.pid, timed: true },
      { target: 'live', url: server.url, path: `/hook/${live}`, pid: server.pid, timed: true },
    ];
    const targets = all.filter((t) => ONLY.length === 0 || ONLY.includes(t.target));
    // Warm-up: JIT, the hook cache, prepared statements, pool connections.
    for (const t of targets) await runPaced({ ...t, rate: 200, seconds: 2, connections: 10, body });

    const db = server.sql();
    const isHealthz = (t: { target: Target }) => t.target === 'healthz';
    const runPhases = async (t: (typeof targets)[number]) => {
      for (const level of t.target === 'live' ? (RESTING ?? [undefined]) : [undefined]) {
        const resting = level === undefined ? undefined : await restUpTo(server.url, t.path, db, level);
        if (resting !== undefined) console.log(`live hook: ${resting} resting orders at the paper broker`);
        for (const rate of RATES) {
          if (t.timed) await takeTimings(server.url);
          const proc = sampleProcesses(t.pid, t.timed ? pgPid : undefined);
          const phase = { ...t, seconds: SECONDS, connections: CONNECTIONS, body };
          const load = rate ? await runPaced({ ...phase, rate }) : await runSaturation(phase);
          const record: PhaseRecord = {
            target: t.target,
            rate: rate ?? 'max',
            ...(resting !== undefined ? { resting } : {}),
            load,
            proc: proc.stop(),
            timings: t.timed ? await takeTimings(server.url) : null,
            loadAverage: loadAverage(),
          };
          phases.push(record);
          console.log(
            `${t.target}${resting !== undefined ? ` (${resting} resting)` : ''} @ ${record.rate}: ${load.throughput}/s p50 ${load.p50Ms} p99 ${load.p99Ms} max ${load.maxMs} ms ${JSON.stringify(load.statusCounts)}` +
              (record.timings ? ` own p50 ${record.timings.own.p50Us} p99 ${record.timings.own.p99Us} µs` : '') +
              ` cpu ${record.proc.serverCpuPct}% pg ${record.proc.postgresCpuPct}% rss ${record.proc.serverRssPeakMb} MB`,
          );
        }
      }
    };
    for (const t of targets.filter((target) => !isHealthz(target))) await runPhases(t);
    if (INSTANCES === 2) await runTwoInstances(server, targets, phases, smtp.url);
    // GET /healthz has no burst: the bursts post signals.
    for (const t of BURST > 0 ? targets.filter((target) => !isHealthz(target)) : []) {
      if (t.timed) await takeTimings(server.url);
      const proc = sampleProcesses(t.pid, t.timed ? pgPid : undefined);
      const burst = await runBurst(t.url, t.path, BURST, BURST_CONNECTIONS, body);
      const record: BurstRecord = {
        target: t.target,
        ...burst,
        proc: proc.stop(),
        timings: t.timed ? await takeTimings(server.url) : null,
      };
      bursts.push(record);
      console.log(
        `burst ${t.target}: ${burst.signals} answered in ${burst.allAnsweredMs} ms ${JSON.stringify(burst.statusCounts)}`,
      );
      // Let the live burst's background broker calls finish before the next one.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    // /healthz last: at saturation it alone grows the server's RSS by ~50-70 MB (young generation,
    // malloc), which the hooks' phases and bursts would otherwise inherit (docs/SCALING.md).
    for (const t of targets.filter(isHealthz)) await runPhases(t);
    // BENCH_FIRST_LOAD=0 skips it (no Chromium). Last: a browser starting and exiting shares the
    // cores with the phases that would follow it.
    if (process.env.BENCH_FIRST_LOAD !== '0') {
      firstLoad = await measureFirstLoad(server.url, '/signin');
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(
        `first load of /signin: ${kb(firstLoad.staticBytes)} static on the wire (${kb(firstLoad.staticBodyBytes)} bodies, ${kb(firstLoad.staticDecodedBytes)} uncompressed), ${kb(firstLoad.totalBytes)} with the API calls, ${firstLoad.requests} requests ${JSON.stringify(firstLoad.encodings)}`,
      );
    }
    if (notifications) console.log(`notifications: ${notifications.received()} webhooks received`);
  } finally {
    await notifications?.close();
    if (PG_STATS) await printStatementStats(server.sql());
    bare.child.kill('SIGTERM');
    await server.stop();
    await smtp.close();
    await removeDataDir(server.dataDir);
  }
  const results: BenchResults = {
    startedAt: new Date(started).toISOString(),
    durationS: Math.round((Date.now() - started) / 1000),
    machine: machine(),
    loadAverageBefore,
    loadAverageAfter: loadAverage(),
    secondsPerPhase: SECONDS,
    connections: CONNECTIONS,
    phases,
    bursts,
    firstLoad,
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'latest.md'), renderMarkdown(results));
  console.log(`\n${renderMarkdown(results)}\nwritten to bench/results/latest.{json,md} in ${results.durationS} s`);
}

await main();
