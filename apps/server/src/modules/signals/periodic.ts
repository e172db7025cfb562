// A background pass run every few seconds by each instance (reconciliation, queued signals,
// resting orders), never two at once in one process: a pass asked for while one runs goes after
// it, and the timer skips its tick instead. A failed pass counts as none done; failures in a row
// are logged as one streak (failure-streak.ts). Once stopped, no pass starts (one asked for then,
// or waiting behind the running one, counts as none done), and the running one is told
// (`stopping`), to end after the batch in hand: a shutdown must not wait for a whole backlog, nor
// go on placing a queue's or claiming more after it began.
import { failureStreak } from '../../failure-streak.ts';
import type { Services } from '../../services.ts';

export interface PeriodicPass<A extends unknown[]> {
  /** One pass now, after the one running if any: how many rows it handled. */
  runOnce(...args: A): Promise<number>;
  /** Stops the timer, tells the pass running, if any, and waits for it. */
  stop(): Promise<void>;
}

export function startPeriodicPass<A extends unknown[]>(
  log: Services['log'],
  options: {
    intervalMs: number;
    failure: string;
    /** `stopping` is aborted when the pass should end after its batch in hand. */
    pass(stopping: AbortSignal, ...args: A): Promise<number>;
    timerArgs: A;
  },
): PeriodicPass<A> {
  let running: Promise<number> | undefined;
  const stopping = new AbortController();
  const failures = failureStreak(log, options.failure);
  const runOnce = (...args: A) => {
    if (stopping.signal.aborted) return Promise.resolve(0);
    const pass = (running ?? Promise.resolve(0))
      .then(async () => {
        if (stopping.signal.aborted) return 0;
        const done = await options.pass(stopping.signal, ...args);
        failures.succeeded();
        return done;
      })
      .catch((error: unknown) => {
        failures.failed(error);
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
      stopping.abort();
      clearInterval(timer);
      await running;
    },
  };
}
