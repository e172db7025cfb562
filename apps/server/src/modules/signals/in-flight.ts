// Signals of this process whose answer is not known yet: a repeat of one waits for its answer
// here instead of polling the database; shutdown waits for the broker calls still running.

export class InFlight<T> {
  readonly #answers = new Map<string, Promise<T>>();
  readonly #settled = new Map<string, Promise<void>>();
  readonly #background = new Set<Promise<unknown>>();

  /** Registers the answer of `id` until `settled` (the outcome is stored) resolves. */
  track(id: string, answer: Promise<T>, settled: Promise<unknown>): void {
    this.#answers.set(id, answer);
    // One callback, settled or failed (a waiting signal holds it through a burst's backlog).
    const forget = () => {
      this.#answers.delete(id);
      this.#settled.delete(id);
      this.#background.delete(done);
    };
    const done: Promise<void> = settled.then(forget, forget);
    this.#background.add(done);
    this.#settled.set(id, done);
  }

  /** When the outcome of `id` is stored (or failed to be); undefined when none is in flight. */
  settled(id: string): Promise<void> | undefined {
    return this.#settled.get(id);
  }

  /**
   * Work of a signal that goes on before it is stored and tracked (a fan-out leg asking its
   * broker first): shutdown waits for it too. Resolves (never rejects) when it settles.
   */
  hold(work: Promise<unknown>): Promise<void> {
    const forget = () => {
      this.#background.delete(done);
    };
    const done: Promise<void> = work.then(forget, forget);
    this.#background.add(done);
    return done;
  }

  ids(): string[] {
    return [...this.#answers.keys()];
  }

  get(id: string): Promise<T> | undefined {
    return this.#answers.get(id);
  }

  /**
   * Waits for running broker calls and their outcome writes, at most `ms`, and for those that
   * what it waited for started meanwhile (a fan-out leg stored and sent once its broker answered).
   */
  async drain(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.#background.size > 0 && Date.now() < until) {
      await withinDeadline(Promise.all(this.#background), until - Date.now());
    }
  }
}

/**
 * `promise`'s value, or undefined when `ms` passes first. With no time left, its value if it has
 * one already (a repeat handled past its deadline still gets the first signal's known answer).
 */
export function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  // A settled promise's reaction is queued first, so it wins the race.
  if (ms <= 0) return Promise.race([promise, Promise.resolve(undefined)]);
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]);
}
