// The Markdown page of a run: machine and load, load phases per target, our own time by phase,
// bursts, and DESIGN.md's budget held against the figures.
import type { BenchResults, PhaseRecord } from '../run.ts';
import { PHASES } from './timings.ts';

const ms = (n: number) => (n >= 100 ? String(Math.round(n)) : n.toFixed(n >= 10 ? 1 : 2));
const us = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} ms` : `${Math.round(n)} µs`);
const statuses = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');

function phaseRow(p: PhaseRecord, bare: PhaseRecord | undefined): string {
  const ratio = bare && bare.load.p50Ms > 0 ? (p.load.p50Ms / bare.load.p50Ms).toFixed(1) : '–';
  const own = p.timings ? `${us(p.timings.own.p50Us)} / ${us(p.timings.own.p99Us)}` : '–';
  return `| ${p.target}${p.instances ? ` on ${p.instances} instances` : ''}${p.resting !== undefined ? ` (${p.resting} resting)` : ''} | ${p.rate} | ${p.load.throughput} | ${ms(p.load.p50Ms)} | ${ms(p.load.p90Ms)} | ${ms(p.load.p99Ms)} | ${ms(p.load.maxMs)} | ${statuses(p.load.statusCounts)}${p.load.errors ? ` err×${p.load.errors}` : ''} | ${ratio} | ${own} | ${p.proc.serverCpuPct} | ${p.proc.postgresCpuPct} | ${p.proc.serverRssPeakMb} | ${p.loadAverage[0]} |`;
}

interface BudgetLine {
  what: string;
  target: string;
  measured: string;
  ok: boolean;
}

function budget(r: BenchResults): BudgetLine[] {
  const lines: BudgetLine[] = [];
  for (const target of ['test', 'live'] as const) {
    const at500 = r.phases.find((p) => p.target === target && p.rate === 500);
    if (at500?.timings) {
      lines.push({
        what: `own time p50 at 500/s (${target} hook)`,
        target: '≤ 1 ms',
        measured: us(at500.timings.own.p50Us),
        ok: at500.timings.own.p50Us <= 1000,
      });
      lines.push({
        what: `own time p99 at 500/s (${target} hook)`,
        target: '≤ 5 ms',
        measured: us(at500.timings.own.p99Us),
        ok: at500.timings.own.p99Us <= 5000,
      });
    }
    if (at500) {
      lines.push({
        what: `client-side p99 at 500/s (${target} hook)`,
        target: '≤ 8 ms',
        measured: `${ms(at500.load.p99Ms)} ms`,
        ok: at500.load.p99Ms <= 8,
      });
    }
    const max = r.phases.find((p) => p.target === target && p.rate === 'max' && !p.instances && !p.resting);
    const healthz = r.phases.find((p) => p.target === 'healthz' && p.rate === 'max');
    if (max && healthz && healthz.load.throughput > 0) {
      const ratio = max.load.throughput / healthz.load.throughput;
      lines.push({
        what: `${target} hook / the same server's GET /healthz at saturation (50 connections)`,
        target: '≥ 0.35',
        measured: `${ratio.toFixed(2)} (${max.load.throughput} / ${healthz.load.throughput})`,
        ok: ratio >= 0.35,
      });
    }
    if (max) {
      const durable = max.load.statusCounts['201'] ?? 0;
      const perSecond = Math.round(durable / r.secondsPerPhase);
      lines.push({
        what: `durable signals/s at saturation (${target} hook)`,
        target: '≥ 3,000',
        measured: String(perSecond),
        ok: perSecond >= 3000,
      });
    }
    const burst = r.bursts.find((b) => b.target === target);
    if (burst) {
      const fivexx = Object.entries(burst.statusCounts)
        .filter(([code]) => Number(code) >= 500)
        .reduce((a, [, n]) => a + n, 0);
      lines.push({
        what: `burst of ${burst.signals} (${target} hook)`,
        target: '≤ 3 s, no 5xx',
        measured: `${(burst.allAnsweredMs / 1000).toFixed(1)} s, ${fivexx} 5xx, ${burst.errors} errors`,
        ok: burst.allAnsweredMs <= 3000 && fivexx === 0 && burst.errors === 0,
      });
    }
  }
  const rss = Math.max(
    ...r.phases.filter((p) => p.target !== 'bare').map((p) => p.proc.serverRssPeakMb),
    ...r.bursts.filter((b) => b.target !== 'bare').map((b) => b.proc.serverRssPeakMb),
  );
  // A run of bursts or first load only has no RSS figure.
  if (Number.isFinite(rss)) {
    lines.push({ what: 'server RSS, peak over the run', target: '≤ 300 MB', measured: `${rss} MB`, ok: rss <= 300 });
  }
  if (r.firstLoad) {
    const kb = r.firstLoad.staticBodyBytes / 1024;
    lines.push({
      what: 'sign-in page first load, static files compressed (br; headers apart)',
      target: '≤ 150 KB',
      measured: `${kb.toFixed(1)} KB`,
      ok: kb <= 150,
    });
  }
  return lines;
}

export function renderMarkdown(r: BenchResults): string {
  const m = r.machine;
  const out: string[] = [];
  out.push(`# Hook benchmark — ${r.startedAt}`, '');
  out.push(
    `Machine: ${m.cores} cores, ${m.cpu}, ${m.ramGb} GB RAM, Node ${m.node}, ${m.os}. ` +
      `Load average before ${r.loadAverageBefore.join(' ')}, after ${r.loadAverageAfter.join(' ')}. ` +
      `${r.secondsPerPhase} s per phase, ${r.connections} connections on loopback (fixed rates paced evenly, saturation by autocannon); run took ${r.durationS} s.`,
    '',
  );
  out.push('## Load phases', '');
  out.push(
    'bare: a Fastify route that parses JSON and answers 201 (separate process). healthz: `GET /healthz` of the same server process as the hooks. test: test hook (validated, stored durably, answered `draft`). live: live hook (stored, placed at the paper broker, answered with its fill). Latency is what the client saw; "× bare" is p50 over the bare route\'s p50 at the same rate; own = the server\'s own time (all but the broker call), p50 / p99.',
    '',
  );
  out.push(
    '| target | rate/s | answered/s | p50 ms | p90 ms | p99 ms | max ms | statuses | × bare | own p50 / p99 | server CPU % | PG CPU % | RSS MB | load 1m |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const p of r.phases) {
    const bare = r.phases.find((b) => b.target === 'bare' && b.rate === p.rate);
    out.push(phaseRow(p, p.target === 'bare' ? undefined : bare));
  }
  const resting = r.phases.filter((p) => p.resting !== undefined);
  if (resting.length > 0) {
    out.push('', '## Live hook by resting orders at the paper broker (BENCH_RESTING)', '');
    out.push(
      'Resting: open limit orders on the symbol the phase trades (AAPL), never reached. broker = the paper placement as the hook waited for it.',
      '',
    );
    out.push(
      '| resting | rate/s | answered/s | p50 ms | p99 ms | own p50 / p99 | broker p50 / p99 | server CPU % | PG CPU % |',
    );
    out.push('|---|---|---|---|---|---|---|---|---|');
    for (const p of resting) {
      const t = p.timings;
      const pair = (phase: 'own' | 'broker') => (t ? `${us(t[phase].p50Us)} / ${us(t[phase].p99Us)}` : '–');
      out.push(
        `| ${p.resting} | ${p.rate} | ${p.load.throughput} | ${ms(p.load.p50Ms)} | ${ms(p.load.p99Ms)} | ${pair('own')} | ${pair('broker')} | ${p.proc.serverCpuPct} | ${p.proc.postgresCpuPct} |`,
      );
    }
  }
  out.push('', '## Our own time by phase (server-side, p50 / p99)', '');
  out.push(`| target | rate/s | ${PHASES.join(' | ')} |`);
  out.push(`|---|---|${PHASES.map(() => '---').join('|')}|`);
  for (const p of r.phases.filter((x) => x.timings)) {
    const t = p.timings as NonNullable<PhaseRecord['timings']>;
    out.push(
      `| ${p.target}${p.resting !== undefined ? ` (${p.resting})` : ''} | ${p.rate} | ${PHASES.map((ph) => `${us(t[ph].p50Us)} / ${us(t[ph].p99Us)}`).join(' | ')} |`,
    );
  }
  out.push('', '## Bursts (all released at once)', '');
  out.push(
    '| target | signals | connections | all answered | p50 ms | p99 ms | statuses | own p50 / p99 | server CPU % | PG CPU % | RSS MB |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const b of r.bursts) {
    const own = b.timings ? `${us(b.timings.own.p50Us)} / ${us(b.timings.own.p99Us)}` : '–';
    out.push(
      `| ${b.target} | ${b.signals} | ${b.connections} | ${(b.allAnsweredMs / 1000).toFixed(2)} s | ${b.p50Ms} | ${b.p99Ms} | ${statuses(b.statusCounts)}${b.errors ? ` err×${b.errors}` : ''} | ${own} | ${b.proc.serverCpuPct} | ${b.proc.postgresCpuPct} | ${b.proc.serverRssPeakMb} |`,
    );
  }
  if (r.firstLoad) {
    const f = r.firstLoad;
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    out.push('', '## First load of /signin (Chromium, empty cache, `Accept-Encoding: br, gzip`)', '');
    out.push('| static on the wire | bodies (compressed) | uncompressed | with API calls | requests | encodings |');
    out.push('|---|---|---|---|---|---|');
    out.push(
      `| ${kb(f.staticBytes)} | ${kb(f.staticBodyBytes)} | ${kb(f.staticDecodedBytes)} | ${kb(f.totalBytes)} | ${f.requests} | ${statuses(f.encodings)} |`,
    );
  }
  out.push('', '## Budget (DESIGN.md "Performance budget")', '');
  out.push('| what | budget | measured | |', '|---|---|---|---|');
  for (const line of budget(r))
    out.push(`| ${line.what} | ${line.target} | ${line.measured} | ${line.ok ? 'met' : 'missed'} |`);
  out.push('');
  return out.join('\n');
}
