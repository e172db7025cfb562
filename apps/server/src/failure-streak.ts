// A background job that fails try after try (the database down or locked for a while) is logged
// when it starts failing, then at most once a minute while it goes on (with how many tries failed
// since), and once when it works again. A line and a stack per try (every second for the
// notification worker and the activity writer) flooded the log through an outage of minutes and
// buried what else happened meanwhile.
import type { Logger } from 'pino';

/** While failing, a reminder at most this often. */
const REMIND_MS = 60_000;

export interface FailureStreak {
  /** A try failed: logged (error) when the streak starts, then once a minute at most. */
  failed(error: unknown, fields?: Record<string, unknown>): void;
  /** A try worked: the end of a streak is logged (info), once. */
  succeeded(): void;
}

export function failureStreak(
  log: Pick<Logger, 'error' | 'info'>,
  message: string,
  remindMs = REMIND_MS,
): FailureStreak {
  let failures = 0;
  let since = 0;
  let logged = 0;
  return {
    failed(error, fields = {}) {
      const now = Date.now();
      failures += 1;
      if (failures === 1) since = now;
      else if (now - logged < remindMs) return;
      logged = now;
      log.error(
        { err: error, ...fields, ...(failures > 1 ? { failures, failingMs: now - since } : {}) },
        failures > 1 ? `${message} (still failing)` : message,
      );
    },
    succeeded() {
      if (failures === 0) return;
      log.info({ failures, failingMs: Date.now() - since }, `${message}: working again`);
      failures = 0;
    },
  };
}
