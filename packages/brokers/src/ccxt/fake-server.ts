// Test support for the exchange fakes: a Fastify app on 127.0.0.1 that keeps every request's
// raw body (signatures are computed over the exact bytes) and logs what arrived, so contract
// tests can check the wire request and count submissions.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Injection, playInjection, takeInjection } from '../core/fake-server.ts';
import { type ProtocolFake, wireRecord } from '../core/protocol-fake.ts';

export interface WireRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  headers: Record<string, string>;
  contentType: string;
  rawBody: string;
}

export interface FakeServer {
  app: FastifyInstance;
  requests: WireRequest[];
  /** Requests whose method and path match. */
  calls(method: string, path: string): WireRequest[];
  /** Answers the next request (to a method and path, when given) with this instead. */
  inject(injection: Injection): void;
  start(): Promise<string>;
  close(): Promise<void>;
}

function rawBodyOf(request: FastifyRequest): string {
  return typeof request.body === 'string' ? request.body : '';
}

export function createFakeServer(): FakeServer {
  const app = Fastify({ logger: false });
  const requests: WireRequest[] = [];
  const injections: Injection[] = [];
  // Every body stays a string: the fake parses it the way the exchange does.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', async (request) => {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.headers))
      if (typeof value === 'string') headers[key.toLowerCase()] = value;
    requests.push({
      method: request.method,
      url: request.url,
      path: request.url.split('?')[0] ?? request.url,
      headers,
      contentType: headers['content-type'] ?? '',
      rawBody: '',
    });
  });
  app.addHook('preHandler', async (request, reply) => {
    const last = [...requests].reverse().find((entry) => entry.url === request.url && entry.rawBody === '');
    if (last) last.rawBody = rawBodyOf(request);
    const injection = takeInjection(injections, request.method, request.url);
    if (injection && (await playInjection(injection, request, reply))) return reply;
  });
  return {
    app,
    requests,
    calls: (method, path) => requests.filter((r) => r.method === method && r.path === path),
    inject: (injection) => {
      injections.push(injection);
    },
    async start() {
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      return address.replace('localhost', '127.0.0.1');
    },
    close: () => app.close(),
  };
}

/** An exchange fake started in the shape the shared replay and end-to-end tests drive. */
export async function startExchangeFake(
  fake: FakeServer,
  options: Pick<ProtocolFake, 'signal' | 'orderCount'> & { credentials: Record<string, string> },
): Promise<ProtocolFake> {
  const baseUrl = await fake.start();
  return {
    config: { baseUrl },
    credentials: () => options.credentials,
    signal: options.signal,
    orderCount: options.orderCount,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.rawBody)),
    answerNext: (answer) => fake.inject(answer),
    close: () => fake.close(),
  };
}
