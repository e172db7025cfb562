// GET /metrics's registry (prom-client): everything is read at scrape time from what the server
// already keeps (counters.ts, the hook's phase timings, the pool) plus one indexed count query;
// nothing is measured twice and the hot path only increments counters.
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, type Histogram, Registry } from 'prom-client';
import { countUnfinishedSignals } from '../../db/repositories/metrics.repository.ts';
import { type HookTimings, PHASES, type Phase } from '../../hook/timings.ts';
import type { ServerCounters } from './counters.ts';

export interface MetricsSources {
  counters: ServerCounters;
  timings: HookTimings;
  pool: pg.Pool;
}

const PHASE_HISTOGRAM = {
  name: 'router_hook_phase_seconds',
  help: 'Time of each phase of POST /hook (lookup, parse, store, broker, answer; own = all but broker)',
  type: 'histogram',
  aggregator: 'sum',
} as const;

/**
 * The hook's phase timings (µs, HookTimings) as a histogram in seconds per phase. prom-client
 * histograms only take observations, so this is a metric of our own in the registry's shape
 * (get() answering name, help, type and the sample values).
 */
function phaseHistogram(timings: HookTimings): Histogram {
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

export function createMetricsRegistry({ counters, timings, pool }: MetricsSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Counter({
    name: 'router_signals_total',
    help: 'Signals received on hooks, by broker and outcome (the status answered)',
    labelNames: ['broker', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [broker, outcome, n] of counters.signals.entries()) this.inc({ broker, outcome }, n);
    },
  });
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
  new Counter({
    name: 'router_broker_errors_total',
    help: 'Failed broker calls by broker and kind (BrokerError kinds; Unexpected for our own faults)',
    labelNames: ['broker', 'kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [broker, kind, n] of counters.brokerErrors.entries()) this.inc({ broker, kind }, n);
    },
  });
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
