// CPU and memory of the server and its PostgreSQL from /proc while a phase runs: CPU as a
// percentage of one core (utime + stime ticks over wall time), the server's peak RSS.
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function ticksOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  } catch {
    return 0;
  }
}

function rssMbOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The postmaster and its children (backends, WAL writer, …). */
function postgresPids(postmaster: number | undefined): number[] {
  if (!postmaster) return [];
  const pids = [postmaster];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

export interface ProcStats {
  serverCpuPct: number;
  postgresCpuPct: number;
  serverRssMb: number;
  serverRssPeakMb: number;
}

/** Starts sampling; `stop()` returns the phase's figures. */
export function sampleProcesses(serverPid: number, postmasterPid?: number) {
  const started = performance.now();
  const serverStart = ticksOf(serverPid);
  const pgStart = new Map(postgresPids(postmasterPid).map((pid) => [pid, ticksOf(pid)]));
  let peak = rssMbOf(serverPid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMbOf(serverPid));
  }, 200);
  return {
    stop(): ProcStats {
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      const pct = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 1000) / 10;
      let pgTicks = 0;
      for (const pid of postgresPids(postmasterPid)) pgTicks += ticksOf(pid) - (pgStart.get(pid) ?? 0);
      const rss = rssMbOf(serverPid);
      return {
        serverCpuPct: pct(ticksOf(serverPid) - serverStart),
        postgresCpuPct: pct(pgTicks),
        serverRssMb: Math.round(rss),
        serverRssPeakMb: Math.round(Math.max(peak, rss)),
      };
    },
  };
}
