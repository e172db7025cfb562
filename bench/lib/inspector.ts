// A minimal Chrome DevTools Protocol client over a server's inspector (bench/alloc.ts, bench/held.ts).
/** A minimal Chrome DevTools Protocol client over the server's inspector WebSocket. */
export class Inspector {
  #next = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!waiting || message.id === undefined) return;
      this.#pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
      webSocketDebuggerUrl: string;
    }>;
    const url = list[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error('no inspector target');
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve, { once: true });
      ws.addEventListener('error', reject, { once: true });
    });
    return new Inspector(ws);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Evaluates `expression` in the server and returns its value (JSON). */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = await this.send<{ result: { value?: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    if (answer.exceptionDetails) throw new Error(`evaluate: ${JSON.stringify(answer.exceptionDetails)}`);
    return answer.result.value as T;
  }

  close(): void {
    this.#ws.close();
  }
}
