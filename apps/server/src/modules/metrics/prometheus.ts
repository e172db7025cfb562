// GET /metrics's registry (prom-client): everything is read at scrape time from what the server
// already keeps (counters.ts, the hook's phase timings, the pool) plus one indexed count query;
// nothing is measured twice and the hot path only increments counters.
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, type Histogram, Registry } from 'prom-client';
import { countUnfinishedSignals } from '../../db/repositories/metrics.repository.ts';
import { PHASES, type Phase, type SignalTimings } from '../signals/timings.ts';
import type { PairCounter, ServerCounters } from './counters.ts';

export interface MetricsSources {
  counters: ServerCounters;
  timings: SignalTimings;
  pool: pg.Pool;
}

const PHASE_HISTOGRAM = {
  name: 'router_hook_phase_seconds',
  help: 'Time of each phase of POST /hook (lookup, parse, store, broker, answer; own = all but broker)',
  type: 'histogram',
  aggregator: 'sum',
} as const;

/**
 * The hook's phase timings (µs, SignalTimings) as a histogram in seconds per phase. prom-client
 * histograms only take observations, so this is a metric of our own in the registry's shape
 * (get() answering name, help, type and the sample values).
 */
function phaseHistogram(timings: SignalTimings): Histogram {
  const bucket = `${PHASE_HISTOGRAM.name}_bucket`;
  const values = () =>
    PHASES.flatMap((phase: Phase) => {
      const h = timings.cumulative(phase);
      return [
        ...h.upperUs.map((upperUs, i) => ({
          metricName: bucket,
          labels: { le: upperUs / 1e6, phase },
          value: h.counts[i] ?? 0,
        })),
        { metricName: bucket, labels: { le: '+Inf', phase }, value: h.count },
        { metricName: `${PHASE_HISTOGRAM.name}_sum`, labels: { phase }, value: h.sumUs / 1e6 },
        { metricName: `${PHASE_HISTOGRAM.name}_count`, labels: { phase }, value: h.count },
      ];
    });
  const metric = {
    ...PHASE_HISTOGRAM,
    collect() {},
    reset() {},
    get: async () => ({ ...PHASE_HISTOGRAM, collect() {}, values: values() }),
  };
  return metric as unknown as Histogram;
}

/** A counter with two labels whose values are read from a PairCounter at scrape time. */
function pairCounter(registry: Registry, name: string, help: string, labels: [string, string], source: PairCounter) {
  const [first, second] = labels;
  new Counter({
    name,
    help,
    labelNames: labels,
    registers: [registry],
    collect() {
      this.reset();
      for (const [a, b, n] of source.entries()) this.inc({ [first]: a, [second]: b }, n);
    },
  });
}

export function createMetricsRegistry({ counters, timings, pool }: MetricsSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  pairCounter(
    registry,
    'router_signals_total',
    'Signals received on hooks, by broker and outcome (the status answered)',
    ['broker', 'outcome'],
    counters.signals,
  );
  new Counter({
    name: 'router_hook_answers_total',
    help: 'Answers of POST /hook by HTTP status code',
    labelNames: ['code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [code, n] of counters.hookAnswers) this.inc({ code }, n);
    },
  });
  pairCounter(
    registry,
    'router_broker_errors_total',
    'Failed broker calls by broker and kind (BrokerError kinds; Unexpected for our own faults)',
    ['broker', 'kind'],
    counters.brokerErrors,
  );
  registry.registerMetric(phaseHistogram(timings));
  new Gauge({
    name: 'router_signals_unfinished',
    help: 'Signals not finished yet (received, placing or unknown): the reconciliation backlog',
    registers: [registry],
    async collect() {
      this.set(await countUnfinishedSignals(pool));
    },
  });
  new Gauge({
    name: 'router_db_pool_connections',
    help: 'Database pool connections by state (total, idle) and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  return registry;
}
