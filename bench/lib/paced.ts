// A fixed rate, open loop: request i is due at start + i / rate, sent when due whatever the
// answers before it are doing, over a pool of keep-alive connections. Latency counts from when
// the request was due, so a server falling behind shows in the figures (no coordinated
// omission). autocannon's `overallRate` is not this: each connection sends its share of a
// second as fast as it can at the start of every second, a burst of `rate` requests once per
// second, which measures queueing behind that burst instead of a steady rate.
import { Pool } from 'undici';
import { type PhaseResult, percentile } from './load.ts';

export interface PacedOptions {
  url: string;
  path: string;
  rate: number;
  seconds: number;
  connections: number;
  body: () => string;
  /** GET without a body (the `healthz` target); POST otherwise. */
  method?: 'GET' | 'POST';
}

export async function runPaced(o: PacedOptions): Promise<PhaseResult> {
  const pool = new Pool(o.url, { connections: o.connections, pipelining: 1, headersTimeout: 30_000 });
  const total = Math.round(o.rate * o.seconds);
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const send = (due: number) => {
    const request =
      o.method === 'GET'
        ? ({ method: 'GET', path: o.path } as const)
        : ({ method: 'POST', path: o.path, headers: { 'content-type': 'application/json' }, body: o.body() } as const);
    const done = pool
      .request(request)
      .then(async (res) => {
        await res.body.dump();
        statusCounts[res.statusCode] = (statusCounts[res.statusCode] ?? 0) + 1;
        latencies.push(performance.now() - due);
      })
      .catch(() => {
        errors++;
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && started + (sent * 1000) / o.rate <= now) send(started + (sent++ * 1000) / o.rate);
    // Sleep until the next one is due (timers fire to the millisecond; no busy loop, which would
    // take a core from the server on a small machine).
    const wait = started + (sent * 1000) / o.rate - performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
  }
  await Promise.all(inFlight);
  const durationS = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    throughput: Math.round(latencies.length / durationS),
    requests: latencies.length,
    p50Ms: round(percentile(latencies, 50)),
    p90Ms: round(percentile(latencies, 90)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? 0),
    statusCounts,
    errors,
  };
}
