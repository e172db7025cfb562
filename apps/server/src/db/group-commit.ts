// Group commit: calls arriving while a batch is being written wait, and go together into the
// next one — one statement and one commit for many callers, each answered only when its batch
// is written. An idle queue writes at the next turn of the event loop, so a lone call waits for
// nothing but its own write; under load the batches grow with the load. A batch that fails is
// written again one input at a time, so one input the database refuses costs only itself.

interface Waiting<I, O> {
  input: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

export class GroupCommit<I, O> {
  readonly #write: (inputs: I[]) => Promise<O[]>;
  readonly #maxBatch: number;
  readonly #lingerMs: number;
  #queue: Array<Waiting<I, O>> = [];
  #writing = false;
  #scheduled = false;

  /**
   * `write` returns one output per input, in order, or throws. `lingerMs`: how long an idle
   * queue waits for company before writing (0: the next turn of the event loop) — for writes
   * nobody waits on, where fewer commits matter more than a few milliseconds.
   */
  constructor(write: (inputs: I[]) => Promise<O[]>, maxBatch: number, lingerMs = 0) {
    this.#write = write;
    this.#maxBatch = maxBatch;
    this.#lingerMs = lingerMs;
  }

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ input, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#writing || this.#scheduled) return;
    this.#scheduled = true;
    const next = () => {
      this.#scheduled = false;
      void this.#next();
    };
    // After the I/O callbacks of this turn: the calls they make join the same batch.
    if (this.#lingerMs > 0 && this.#queue.length < this.#maxBatch) setTimeout(next, this.#lingerMs);
    else setImmediate(next);
  }

  async #next(): Promise<void> {
    if (this.#writing || this.#queue.length === 0) return;
    this.#writing = true;
    const batch = this.#queue.splice(0, this.#maxBatch);
    try {
      await this.#settle(batch).catch(async (error: unknown) => {
        if (batch.length === 1) for (const w of batch) w.reject(error);
        else await Promise.all(batch.map((w) => this.#settle([w]).catch((e: unknown) => w.reject(e))));
      });
    } finally {
      this.#writing = false;
      if (this.#queue.length > 0) this.#schedule();
    }
  }

  async #settle(batch: Array<Waiting<I, O>>): Promise<void> {
    const outputs = await this.#write(batch.map((w) => w.input));
    if (outputs.length !== batch.length) throw new Error(`batch write gave ${outputs.length} of ${batch.length}`);
    for (const [i, w] of batch.entries()) w.resolve(outputs[i] as O);
  }
}
