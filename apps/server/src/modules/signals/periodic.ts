// A background pass run every few seconds by each instance (reconciliation, queued signals,
// resting orders), never two at once in one process: a pass asked for while one runs goes after it, and the timer
// skips its tick instead. A failed pass is logged and counts as none done. Once stopped, no pass
// starts (one asked for then, or waiting behind the running one, counts as none done).
import type { Services } from '../../services.ts';

export interface PeriodicPass<A extends unknown[]> {
  /** One pass now, after the one running if any: how many rows it handled. */
  runOnce(...args: A): Promise<number>;
  /** Stops the timer and waits for the pass running, if any. */
  stop(): Promise<void>;
}

export function startPeriodicPass<A extends unknown[]>(
  log: Services['log'],
  options: { intervalMs: number; failure: string; pass(...args: A): Promise<number>; timerArgs: A },
): PeriodicPass<A> {
  let running: Promise<number> | undefined;
  let stopped = false;
  const runOnce = (...args: A) => {
    if (stopped) return Promise.resolve(0);
    const pass = (running ?? Promise.resolve(0))
      .then(() => (stopped ? 0 : options.pass(...args)))
      .catch((error: unknown) => {
        log.error({ err: error }, options.failure);
        return 0;
      });
    running = pass;
    void pass.finally(() => {
      if (running === pass) running = undefined;
    });
    return pass;
  };
  const timer = setInterval(() => {
    if (!running) void runOnce(...options.timerArgs);
  }, options.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
