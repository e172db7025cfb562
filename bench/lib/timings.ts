// The server's own time per signal by phase, from GET /api/internal/hook-timings (HOOK_TIMINGS).
export const PHASES = ['lookup', 'parse', 'store', 'broker', 'answer', 'own'] as const;
export type Phase = (typeof PHASES)[number];

export interface PhaseTiming {
  count: number;
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  maxUs: number;
}

export type Timings = Record<Phase, PhaseTiming>;

/** The timings since the last call, then cleared (`?reset=1`). */
export async function takeTimings(url: string): Promise<Timings> {
  const res = await fetch(`${url}/api/internal/hook-timings?reset=1`);
  if (!res.ok) throw new Error(`hook-timings answered ${res.status}: is HOOK_TIMINGS=true?`);
  return (await res.json()) as Timings;
}
