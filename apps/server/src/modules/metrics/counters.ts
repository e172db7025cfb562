// Counters the hot path increments: two nested maps of small integers, so counting a signal
// allocates nothing once its (broker, outcome) pair has been seen. Read by /metrics at scrape time.

/** Counts by two labels, e.g. (broker, outcome). */
export class PairCounter {
  readonly #counts = new Map<string, Map<string, number>>();

  inc(first: string, second: string): void {
    let inner = this.#counts.get(first);
    if (!inner) {
      inner = new Map();
      this.#counts.set(first, inner);
    }
    inner.set(second, (inner.get(second) ?? 0) + 1);
  }

  *entries(): Generator<[string, string, number]> {
    for (const [first, inner] of this.#counts) for (const [second, n] of inner) yield [first, second, n];
  }
}

/** What a running server counts for /metrics (DESIGN.md: signals, answers, broker errors). */
export class ServerCounters {
  /** Hook signals by broker (provider name) and outcome (the answer's status). */
  readonly signals = new PairCounter();
  /** Broker call failures by broker and kind (BrokerError kinds, or `Unexpected`). */
  readonly brokerErrors = new PairCounter();
  /** Every answer of POST /hook/:shortKey by HTTP status code. */
  readonly hookAnswers = new Map<number, number>();

  signal(broker: string, answer: { body: Record<string, unknown> }): void {
    const status = answer.body.status;
    this.signals.inc(broker, typeof status === 'string' ? status : 'unknown');
  }

  hookAnswer(statusCode: number): void {
    this.hookAnswers.set(statusCode, (this.hookAnswers.get(statusCode) ?? 0) + 1);
  }
}
