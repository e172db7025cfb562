// Saturation with autocannon on loopback (its connections send as fast as answers come), and
// the burst: 10,000 requests released at once over a bounded pool of connections.
import autocannon from 'autocannon';
import { Pool } from 'undici';

export interface PhaseResult {
  /** Answers per second over the phase. */
  throughput: number;
  requests: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCounts: Record<string, number>;
  errors: number;
}

/** The value at percentile `p` of ascending `sorted` (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export interface PhaseOptions {
  url: string;
  path: string;
  seconds: number;
  connections: number;
  /** A distinct body per request (live signals would otherwise be one signal, deduplicated). */
  body: () => string;
  /** GET without a body (the `healthz` target); POST otherwise. */
  method?: 'GET' | 'POST';
}

export async function runSaturation(options: PhaseOptions): Promise<PhaseResult> {
  const get = options.method === 'GET';
  const result = await autocannon({
    url: `${options.url}${options.path}`,
    method: get ? 'GET' : 'POST',
    ...(get ? {} : { headers: { 'content-type': 'application/json' } }),
    connections: options.connections,
    duration: options.seconds,
    requests: [get ? {} : { setupRequest: (request) => ({ ...request, body: options.body() }) }],
  });
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = stat.count ?? 0;
  const total = Object.values(statusCounts).reduce((a, b) => a + b, 0);
  return {
    throughput: Math.round(total / result.duration),
    requests: total,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    statusCounts,
    errors: result.errors,
  };
}

export interface BurstResult {
  signals: number;
  connections: number;
  /** From release to the last answer. */
  allAnsweredMs: number;
  p50Ms: number;
  p99Ms: number;
  statusCounts: Record<string, number>;
  errors: number;
}

/** `count` requests released at once over `connections` keep-alive connections (loopback). */
export async function runBurst(
  url: string,
  path: string,
  count: number,
  connections: number,
  body: () => string,
): Promise<BurstResult> {
  const pool = new Pool(url, { connections, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 });
  // Open the connections first, so the burst measures answers, not TCP handshakes.
  await Promise.all(
    Array.from({ length: connections }, () =>
      pool.request({ method: 'GET', path: '/healthz' }).then((r) => r.body.dump()),
    ),
  );
  const bodies = Array.from({ length: count }, body);
  const statusCounts: Record<string, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    bodies.map(async (b) => {
      const sent = performance.now();
      try {
        const res = await pool.request({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json' },
          body: b,
        });
        await res.body.dump();
        statusCounts[res.statusCode] = (statusCounts[res.statusCode] ?? 0) + 1;
        latencies.push(performance.now() - sent);
      } catch {
        errors++;
      }
    }),
  );
  const allAnsweredMs = Math.round(performance.now() - started);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(percentile(latencies, p));
  return { signals: count, connections, allAnsweredMs, p50Ms: at(50), p99Ms: at(99), statusCounts, errors };
}
