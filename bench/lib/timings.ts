// The server's own time per signal by phase, from GET /api/internal/hook-timings (HOOK_TIMINGS).
import type { Phase, PhaseSummary } from '../../apps/server/src/modules/signals/timings.ts';

export { PHASES } from '../../apps/server/src/modules/signals/timings.ts';

export type Timings = Record<Phase, PhaseSummary>;

/** The timings since the last call, then cleared (`?reset=1`). */
export async function takeTimings(url: string): Promise<Timings> {
  const res = await fetch(`${url}/api/internal/hook-timings?reset=1`);
  if (!res.ok) throw new Error(`hook-timings answered ${res.status}: is HOOK_TIMINGS=true?`);
  return (await res.json()) as Timings;
}
