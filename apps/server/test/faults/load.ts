// Sending signals over loopback with keep-alive (fetch's pooled connections): one at a time,
// many at once, or a bounded load of workers for a bounded time.
import type { Reply } from './books.ts';

export interface Sent extends Reply {
  /** Milliseconds from send to answer. */
  ms: number;
  /** Date.now() when the answer arrived. */
  at: number;
  /** The request's number in a load (its body is `body(n)`). */
  n?: number;
}

export async function post(
  url: string,
  shortKey: string,
  body: string | Record<string, unknown>,
  contentType = 'application/json',
): Promise<Sent> {
  const started = performance.now();
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  const res = await fetch(`${url}/hook/${shortKey}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed, ms: performance.now() - started, at: Date.now() };
}

export interface LoadOptions {
  url: string;
  shortKey: string;
  workers: number;
  /** Upper bound of the run; `stop()` may end it earlier. */
  maxMs: number;
  maxRequests: number;
  body(n: number): Record<string, unknown>;
  /** Where request n goes, all at once (default: `url`): a sender retrying on another instance. */
  urls?(n: number): string[];
}

export interface Load {
  replies: Sent[];
  /** Requests that got no answer (connection refused or reset: the server was killed). */
  failures: number;
  stop(): void;
  done: Promise<void>;
}

/** Workers each sending one signal after another until stopped, out of time or requests. */
export function startLoad(options: LoadOptions): Load {
  const replies: Sent[] = [];
  let stopped = false;
  let next = 0;
  const load: Load = {
    replies,
    failures: 0,
    stop: () => {
      stopped = true;
    },
    done: Promise.resolve(),
  };
  const until = Date.now() + options.maxMs;
  const worker = async () => {
    while (!stopped && Date.now() < until && next < options.maxRequests) {
      const n = next++;
      const sent = await Promise.allSettled(
        (options.urls?.(n) ?? [options.url]).map((url) => post(url, options.shortKey, options.body(n))),
      );
      for (const result of sent) {
        if (result.status === 'fulfilled') replies.push({ ...result.value, n });
        else load.failures++;
      }
      if (sent.some((result) => result.status === 'rejected')) await new Promise((r) => setTimeout(r, 20));
    }
  };
  load.done = Promise.all(Array.from({ length: options.workers }, worker)).then(() => undefined);
  return load;
}

/** A unique order per n (its own client_id), so the dedupe never merges two. */
export function order(tag: string, n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: `${tag}-${n}`, ...extra };
}
