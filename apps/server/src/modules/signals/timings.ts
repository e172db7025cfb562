// Per-phase timings of a signal (lookup and answer by the hook endpoint; parse, store, broker
// here; own = all but the broker), in microseconds, as log-scale histograms: recording is an
// array increment. Read by the benchmark at GET /api/internal/hook-timings when
// HOOK_TIMINGS=true; never in a response.

export const PHASES = ['lookup', 'parse', 'store', 'broker', 'answer', 'own'] as const;
export type Phase = (typeof PHASES)[number];

/** Bucket i holds values below 2^(i/4) µs: about 19 % wide, up to ~70 s. */
const BUCKETS = 105;

function bucketOf(us: number): number {
  if (us < 1) return 0;
  return Math.min(BUCKETS - 1, Math.floor(Math.log2(us) * 4) + 1);
}

function upperOf(bucket: number): number {
  return 2 ** (bucket / 4);
}

class Histogram {
  readonly counts = new Array<number>(BUCKETS).fill(0);
  count = 0;
  sum = 0;
  max = 0;

  record(us: number): void {
    this.counts[bucketOf(us)] = (this.counts[bucketOf(us)] ?? 0) + 1;
    this.count++;
    this.sum += us;
    if (us > this.max) this.max = us;
  }

  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i] ?? 0;
      if (seen >= rank) return Math.min(upperOf(i), this.max);
    }
    return this.max;
  }
}

export interface PhaseSummary {
  count: number;
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  maxUs: number;
}

export class SignalTimings {
  readonly enabled: boolean;
  #histograms = new Map<Phase, Histogram>(PHASES.map((p) => [p, new Histogram()]));

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  /** Records the time since `start` (process.hrtime.bigint()) in phase `phase`. */
  record(phase: Phase, start: bigint, end?: bigint): void {
    // Off (production): no clock read, no BigInt made, on each of a signal's phases.
    if (!this.enabled) return;
    this.#histograms.get(phase)?.record(Number((end ?? process.hrtime.bigint()) - start) / 1000);
  }

  recordUs(phase: Phase, us: number): void {
    if (this.enabled) this.#histograms.get(phase)?.record(us);
  }

  summary(): Record<Phase, PhaseSummary> {
    const round = (n: number) => Math.round(n * 10) / 10;
    const out = {} as Record<Phase, PhaseSummary>;
    for (const phase of PHASES) {
      const h = this.#histograms.get(phase) ?? new Histogram();
      out[phase] = {
        count: h.count,
        meanUs: round(h.count ? h.sum / h.count : 0),
        p50Us: round(h.percentile(50)),
        p90Us: round(h.percentile(90)),
        p99Us: round(h.percentile(99)),
        maxUs: round(h.max),
      };
    }
    return out;
  }

  /**
   * A phase as a Prometheus histogram: counts of values below 2^k µs (k = 0, 1, …; every fourth
   * bucket edge), their total count and sum. For /metrics; nothing is measured twice.
   */
  cumulative(phase: Phase): { upperUs: number[]; counts: number[]; count: number; sumUs: number } {
    const h = this.#histograms.get(phase) ?? new Histogram();
    const upperUs: number[] = [];
    const counts: number[] = [];
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += h.counts[i] ?? 0;
      if (i % 4 === 0) {
        upperUs.push(upperOf(i));
        counts.push(seen);
      }
    }
    return { upperUs, counts, count: h.count, sumUs: h.sum };
  }

  reset(): void {
    this.#histograms = new Map(PHASES.map((p) => [p, new Histogram()]));
  }
}
