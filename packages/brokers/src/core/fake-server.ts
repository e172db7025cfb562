// Test support for protocol fakes: a Fastify app on loopback that records every request as it
// came over the wire (raw body kept), checks authentication the broker's way before anything
// else, and can answer the next request with an injected error, delay or dropped connection.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received ('' when none). */
  body: string;
}

/**
 * A canned answer for the next authenticated request (to `method` and `path` when given): an
 * error, a recorded answer, a delay, or a dropped connection.
 */
export interface Injection {
  method?: string;
  /** The path without query (/v2/orders), or a pattern it matches. */
  path?: string | RegExp;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  drop?: boolean;
  /**
   * Called as the request arrives, before its delay: a test ends the caller's wait here, so its
   * deadline passes while the broker holds the request, however long the steps before it took.
   */
  onArrival?: () => void;
}

export interface FakeServerOptions {
  /**
   * Answers the request itself (401, 403, …) and returns false when the broker would refuse it.
   * `body` is the body exactly as received, for brokers that sign it.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply, body: string): boolean;
}

export interface FakeServer {
  app: FastifyInstance;
  requests: RecordedRequest[];
  inject(injection: Injection): void;
  clearInjections(): void;
  /** Starts on 127.0.0.1, a free port; returns the base URL. */
  listen(): Promise<string>;
}

/** Removes and returns the first injection meant for this request. */
export function takeInjection(injections: Injection[], method: string, url: string): Injection | undefined {
  const path = url.split('?')[0];
  const fits = (wanted: Injection['path']) =>
    wanted === undefined || (typeof wanted === 'string' ? wanted === path : wanted.test(path ?? ''));
  const index = injections.findIndex(
    (injection) => (!injection.method || injection.method === method) && fits(injection.path),
  );
  return index < 0 ? undefined : injections.splice(index, 1)[0];
}

/**
 * Plays an injection; true when it answered the request. A dropped connection still reaches the
 * handler: the broker acted, its answer is lost.
 */
export async function playInjection(injection: Injection, request: FastifyRequest, reply: FastifyReply) {
  injection.onArrival?.();
  if (injection.delayMs) await new Promise((resolve) => setTimeout(resolve, injection.delayMs));
  if (injection.drop) request.raw.socket.destroy();
  if (!injection.status) return false;
  await reply
    .code(injection.status)
    .headers(injection.headers ?? {})
    .send(injection.body);
  return true;
}

export function createFakeServer(options: FakeServerOptions): FakeServer {
  // Closing ends every connection: a client's socket that never sent a request (left by an aborted
  // fetch) counts as busy to Node, and app.close() would wait for it until the headers timeout.
  const app = Fastify({ forceCloseConnections: true });
  const raw = new WeakMap<object, string>();
  const requests: RecordedRequest[] = [];
  const injections: Injection[] = [];

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    raw.set(request.raw, String(body));
    try {
      done(null, body === '' ? {} : JSON.parse(String(body)));
    } catch (error) {
      done(error as Error);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    raw.set(request.raw, String(body));
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.addHook('preValidation', async (request, reply) => {
    const body = raw.get(request.raw) ?? '';
    requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    if (!options.authenticate(request, reply, body)) return reply;
    const injection = takeInjection(injections, request.method, request.url);
    if (injection && (await playInjection(injection, request, reply))) return reply;
  });

  return {
    app,
    requests,
    inject: (injection) => {
      injections.push(injection);
    },
    clearInjections: () => {
      injections.splice(0);
    },
    listen: () => app.listen({ host: '127.0.0.1', port: 0 }),
  };
}
