// `node bench/alloc.ts`: bytes the server allocates per signal on the hook's path (garbage
// included), the figure behind the scavenges that make the hook's p99 (docs/SCALING.md). Starts the
// real server (as `npm run bench` does, HOOK_TIMINGS off as in production) with the inspector on
// a loopback port, makes a trader, warms both hooks, then per target sends ALLOC_SIGNALS (default
// 5,000) signals at an evenly paced ALLOC_RATE (default 250/s) and reads, over the inspector, what
// the heap allocated meanwhile: exact, from v8.GCProfiler (used heap at the end minus at the start
// plus what every collection in between freed). ALLOC_PROFILE=<dir> also takes V8's sampling
// heap profile (collected objects included) over each target and prints its top functions by
// self size; the .heapprofile files open in Chrome DevTools. ALLOC_TARGETS=test,live (default
// both); ALLOC_DATA_DIR: where the data folders go (default the OS's temporary folder; as root,
// every folder above it must be 0755). CPU time is not measured: on a shared machine it means
// little; bytes allocated do not depend on the load. ALLOC_NOTIFY=1: the trader also gets a webhook
// setting (a loopback receiver answering 200) and an email setting (the SMTP sink), all events, as
// `BENCH_NOTIFY=1` does (lib/notify.ts), so the figures include the notification delivery path.
import fs from 'node:fs';
import path from 'node:path';
import { freePort, freshDataDir, removeDataDir, startLiveServer } from '../apps/server/test/faults/live-server.ts';
import { createTrader } from '../apps/server/test/faults/trader.ts';
import { startSmtpSink } from '../apps/server/test/smtp-sink.ts';
import { type ProfileNode, summarize } from './lib/heap-profile.ts';
import { Inspector } from './lib/inspector.ts';
import { listenToNotifications, type NotificationReceiver } from './lib/notify.ts';
import { runPaced } from './lib/paced.ts';

const SIGNALS = Number(process.env.ALLOC_SIGNALS ?? 5_000);
const RATE = Number(process.env.ALLOC_RATE ?? 250);
const TARGETS = (process.env.ALLOC_TARGETS ?? 'test,live').split(',').filter(Boolean);
const PROFILE = process.env.ALLOC_PROFILE;
const NOTIFY = process.env.ALLOC_NOTIFY === '1';
const SETTLE_MS = 1_500;

let counter = 0;
const runId = Date.now().toString(36);
const body = () => JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1, client_id: `a-${runId}-${++counter}` });

const START = `(() => {
  const v8 = process.getBuiltinModule('v8');
  globalThis.__alloc = { profiler: new v8.GCProfiler(), used: v8.getHeapStatistics().used_heap_size };
  globalThis.__alloc.profiler.start();
  return true;
})()`;
const STOP = `(() => {
  const v8 = process.getBuiltinModule('v8');
  const { profiler, used } = globalThis.__alloc;
  const { statistics } = profiler.stop();
  const usedNow = v8.getHeapStatistics().used_heap_size;
  let freed = 0;
  let scavenges = 0;
  let full = 0;
  for (const gc of statistics) {
    freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    if (gc.gcType === 'Scavenge' || gc.gcType === 'MinorMarkSweep') scavenges++;
    else full++;
  }
  delete globalThis.__alloc;
  return { allocated: usedNow - used + freed, scavenges, full };
})()`;

async function main() {
  const smtp = await startSmtpSink();
  const inspectPort = await freePort();
  const dataDir = process.env.ALLOC_DATA_DIR
    ? fs.mkdtempSync(path.join(process.env.ALLOC_DATA_DIR, 'alloc-'))
    : freshDataDir('router-alloc-');
  fs.chmodSync(dataDir, 0o755);
  const server = await startLiveServer(
    {
      SMTP_URL: smtp.url,
      HOOK_TIMINGS: 'false',
      NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`,
      ...(NOTIFY ? { ALLOW_PRIVATE_WEBHOOKS: 'true' } : {}),
    },
    dataDir,
  );
  let inspector: Inspector | undefined;
  let notifications: NotificationReceiver | undefined;
  try {
    const trader = await createTrader(server.url, smtp, server.sql(), { balance: 100_000_000 });
    notifications = NOTIFY ? await listenToNotifications(server.url, trader) : undefined;
    const [live, test] = trader.hooks as [string, string];
    const paths: Record<string, string> = { test: `/hook/${test}`, live: `/hook/${live}` };
    inspector = await Inspector.connect(inspectPort);
    for (const target of TARGETS) {
      const hookPath = paths[target];
      if (!hookPath) throw new Error(`unknown target ${target}`);
      // Warm-up: JIT, the hook cache, prepared statements, pool connections.
      await runPaced({ url: server.url, path: hookPath, rate: 200, seconds: 3, connections: 10, body });
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      if (PROFILE) {
        await inspector.send('HeapProfiler.enable');
        await inspector.send('HeapProfiler.startSampling', {
          samplingInterval: 16_384,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        });
      }
      await inspector.evaluate(START);
      const load = await runPaced({
        url: server.url,
        path: hookPath,
        rate: RATE,
        seconds: SIGNALS / RATE,
        connections: 20,
        body,
      });
      // Work after the answer (outcomes, activity entries) finishes within the settle time.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const gc = await inspector.evaluate<{ allocated: number; scavenges: number; full: number }>(STOP);
      const statuses = JSON.stringify(load.statusCounts);
      const webhooks = notifications ? `, ${notifications.received()} webhooks received so far` : '';
      console.log(
        `${target}: ${load.requests} signals ${statuses}, allocated ${(gc.allocated / 1024 / 1024).toFixed(1)} MB = ` +
          `${(gc.allocated / load.requests / 1024).toFixed(2)} KB/signal (${gc.scavenges} scavenges, ${gc.full} full collections)${webhooks}`,
      );
      if (PROFILE) {
        const { profile } = await inspector.send<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
        fs.mkdirSync(PROFILE, { recursive: true });
        const file = path.join(PROFILE, `${target}-${runId}.heapprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        console.log(`${summarize(profile.head, load.requests)}\nwritten to ${file}`);
      }
    }
  } finally {
    inspector?.close();
    await notifications?.close();
    await server.stop();
    await smtp.close();
    await removeDataDir(server.dataDir);
  }
}

await main();
