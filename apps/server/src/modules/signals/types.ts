// What the signal path answers, and the phases it times (read at GET /api/internal/hook-timings).

/** SPEC §8: 201 with the order response, or 400/404/413/429 with {status, message}. */
export interface Answer {
  statusCode: number;
  body: Record<string, unknown>;
}

/** Records how long a phase took since `start` (process.hrtime.bigint()); the hook's HookTimings. */
export interface PhaseClock {
  record(phase: 'parse' | 'store' | 'broker', start: bigint): void;
}
