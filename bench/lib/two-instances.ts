// BENCH_INSTANCES=2: a second server on the first one's database (its embedded PostgreSQL, by
// socket), and saturation split evenly over both, as a load balancer would: the answers of both
// added up, each percentile the worse of the two.
import { embeddedDatabaseUrl } from '../../apps/server/src/db/embedded-access.ts';
import { type LiveServer, startLiveServer } from '../../apps/server/test/faults/live-server.ts';
import { type PhaseOptions, type PhaseResult, runSaturation } from './load.ts';

export function startSecondInstance(first: LiveServer, env: Record<string, string>): Promise<LiveServer> {
  return startLiveServer({ ...env, DATABASE_URL: embeddedDatabaseUrl(first.dataDir) });
}

export async function runSaturationOnBoth(urls: [string, string], options: PhaseOptions): Promise<PhaseResult> {
  const half = Math.ceil(options.connections / 2);
  const [a, b] = await Promise.all(urls.map((url) => runSaturation({ ...options, url, connections: half })));
  if (!a || !b) throw new Error('two runs expected');
  const statusCounts: Record<string, number> = { ...a.statusCounts };
  for (const [code, n] of Object.entries(b.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
  return {
    throughput: a.throughput + b.throughput,
    requests: a.requests + b.requests,
    p50Ms: Math.max(a.p50Ms, b.p50Ms),
    p90Ms: Math.max(a.p90Ms, b.p90Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    maxMs: Math.max(a.maxMs, b.maxMs),
    statusCounts,
    errors: a.errors + b.errors,
  };
}
