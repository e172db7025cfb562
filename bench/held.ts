// `node bench/held.ts`: the heap a live signal holds while it waits for the paper account's queue
// (docs/ARCHITECTURE.md "Memory": a burst's backlog), measured exactly. Starts the real server
// (as bench/alloc.ts does) with the inspector on a loopback port, makes a trader, warms the live
// hook, then holds the paper account's advisory lock from another connection, so the paper batch
// in flight waits for it and every later signal queues in the process. HELD_SIGNALS (default
// 2,000) live signals are sent over 200 connections; each is stored and answered at the deadline
// (HOOK_DEADLINE_MS=500 here) while its order waits. With all answered, after a full collection,
// the used heap above what it was before (also after a full collection), divided by the signals
// waiting, is what each holds; V8's sampling heap profile of the objects still alive then says
// what it is (HELD_PROFILE=<dir> writes the .heapprofile). The lock is then released and the
// orders are placed.
import fs from 'node:fs';
import path from 'node:path';
import { freePort, freshDataDir, removeDataDir, startLiveServer } from '../apps/server/test/faults/live-server.ts';
import { createTrader } from '../apps/server/test/faults/trader.ts';
import { startSmtpSink } from '../apps/server/test/smtp-sink.ts';
import { type ProfileNode, summarize } from './lib/heap-profile.ts';
import { Inspector } from './lib/inspector.ts';
import { runBurst } from './lib/load.ts';
import { runPaced } from './lib/paced.ts';

const SIGNALS = Number(process.env.HELD_SIGNALS ?? 2_000);
const PROFILE = process.env.HELD_PROFILE;
/** The paper store's advisory lock class ('PAPR', db/repositories/paper.repository.ts). */
const LOCK_CLASS = 0x50415052;

let counter = 0;
const runId = Date.now().toString(36);
const body = () => JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1, client_id: `h-${runId}-${++counter}` });

const USED = `(() => process.getBuiltinModule('v8').getHeapStatistics().used_heap_size)()`;

async function usedAfterGc(inspector: Inspector): Promise<number> {
  await inspector.send('HeapProfiler.collectGarbage');
  await inspector.send('HeapProfiler.collectGarbage');
  return inspector.evaluate<number>(USED);
}

async function main() {
  const smtp = await startSmtpSink();
  const inspectPort = await freePort();
  const dataDir = freshDataDir('router-held-');
  fs.chmodSync(dataDir, 0o755);
  const server = await startLiveServer(
    {
      SMTP_URL: smtp.url,
      HOOK_TIMINGS: 'false',
      HOOK_DEADLINE_MS: '500',
      NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`,
    },
    dataDir,
  );
  let inspector: Inspector | undefined;
  const sql = server.sql();
  const locker = await sql.connect();
  try {
    const trader = await createTrader(server.url, smtp, server.sql(), { balance: 100_000_000 });
    const hookPath = `/hook/${trader.hooks[0]}`;
    inspector = await Inspector.connect(inspectPort);
    await runPaced({ url: server.url, path: hookPath, rate: 200, seconds: 3, connections: 10, body });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = await usedAfterGc(inspector);
    await inspector.send('HeapProfiler.enable');
    await inspector.send('HeapProfiler.startSampling', { samplingInterval: 1_024 });
    await locker.query('begin');
    await locker.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, trader.accountId]);
    const burst = await runBurst(server.url, hookPath, SIGNALS, 200, body);
    const held = await usedAfterGc(inspector);
    const { profile } = await inspector.send<{ profile: { head: ProfileNode } }>('HeapProfiler.getSamplingProfile');
    await inspector.send('HeapProfiler.stopSampling');
    const waiting = await sql.query<{ n: number }>(
      "select count(*)::int as n from signals where user_id = $1 and status = 'placing'",
      [trader.userId],
    );
    const n = waiting.rows[0]?.n ?? 0;
    console.log(
      `${SIGNALS} live signals ${JSON.stringify(burst.statusCounts)}, ${n} waiting for the paper queue: ` +
        `heap ${(before / 1048576).toFixed(1)} → ${(held / 1048576).toFixed(1)} MB = ` +
        `${((held - before) / Math.max(1, n) / 1024).toFixed(2)} KB per waiting signal`,
    );
    console.log(summarize(profile.head, Math.max(1, n)));
    if (PROFILE) {
      fs.mkdirSync(PROFILE, { recursive: true });
      const file = path.join(PROFILE, `held-${runId}.heapprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`written to ${file}`);
    }
    await locker.query('commit');
  } finally {
    locker.release();
    inspector?.close();
    await server.stop();
    await smtp.close();
    await removeDataDir(server.dataDir);
  }
}

await main();
