import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError } from './errors.ts';
import { createHttpClient, type HttpRequest } from './http.ts';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const routes: Record<string, Handler> = {
  '/ok': (_req, res, body) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ echoed: body, url: _req.url, type: _req.headers['content-type'] ?? null }));
  },
  '/slow': () => {}, // never answers
  '/limited-until': (_req, res) => {
    res.writeHead(429, { 'retry-after': 'Fri, 27 Nov 2026 15:00:00 GMT' }).end();
  },
  '/limited-odd': (_req, res) => {
    res.writeHead(429, { 'retry-after': '1.5' }).end();
  },
  '/limited': (_req, res) => {
    res.writeHead(429, { 'retry-after': '3' }).end('{"message":"too many requests"}');
  },
  '/unauthorized': (_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"token expired"}}');
  },
  '/waf': (_req, res) => {
    res.writeHead(403, { 'content-type': 'text/html' }).end('<html><h1>403 Forbidden</h1>cloudflare</html>');
  },
  '/empty-401': (_req, res) => {
    res.writeHead(401).end();
  },
  '/broken': (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
  },
  '/rejected': (_req, res) => {
    res.writeHead(422, { 'content-type': 'application/json' }).end('{"errors":[{"detail":"Symbol not found"}]}');
  },
  '/gateway-timeout': (_req, res) => {
    res.writeHead(408, { 'content-type': 'text/html' }).end('<html>408 Request Timeout</html>');
  },
  '/client-closed': (_req, res) => {
    res.writeHead(499).end();
  },
  '/conflict': (_req, res) => {
    res.writeHead(409, { 'content-type': 'application/json' }).end('{"message":"duplicate client order id"}');
  },
  '/misdirected': (_req, res) => {
    res.writeHead(421).end();
  },
  '/too-early': (_req, res) => {
    res.writeHead(425).end();
  },
  '/internal-worded': (_req, res) => {
    res
      .writeHead(500, { 'content-type': 'application/json' })
      .end('{"message":"internal error: not enough resources"}');
  },
  '/internal-unauthorized': (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"upstream: invalid token"}');
  },
  '/missing': (_req, res) => {
    res.writeHead(404).end();
  },
  '/drop': (req) => {
    req.socket.destroy();
  },
  '/garbled': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": ');
  },
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => routes[new URL(req.url ?? '/', 'http://x').pathname]?.(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (signal?: AbortSignal) =>
  createHttpClient({ brokerTitle: 'Acme', baseUrl: `${baseUrl}/`, timeoutMs: 300, ...(signal ? { signal } : {}) });

async function failure(request: HttpRequest, signal?: AbortSignal): Promise<BrokerError> {
  const error = await client(signal)
    .request(request)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}

describe('createHttpClient', () => {
  it('sends JSON and query parameters and parses the JSON answer', async () => {
    const response = await client().request({ path: '/ok', query: { a: 1, skip: undefined }, json: { qty: 2 } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ echoed: '{"qty":2}', url: '/ok?a=1', type: 'application/json' });
  });

  it('sends forms url-encoded', async () => {
    const response = await client().request({ path: '/ok', form: { grant_type: 'refresh_token', code: 'a b' } });
    expect(response.body).toMatchObject({
      echoed: 'grant_type=refresh_token&code=a+b',
      type: 'application/x-www-form-urlencoded',
    });
  });

  it('maps a timeout on an order submission to BrokerUnavailable with an unknown outcome', async () => {
    const started = Date.now();
    const error = await failure({ method: 'POST', path: '/slow', json: {}, timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      message: 'Acme: no answer within 100 ms',
    });
  });

  it('a timed-out read changes nothing at the broker: outcome known', async () => {
    const error = await failure({ path: '/slow', timeoutMs: 100 });
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: false });
  });

  it("honours the caller's deadline signal", async () => {
    const error = await failure({ method: 'POST', path: '/slow', timeoutMs: 5000 }, AbortSignal.timeout(80));
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      brokerMessage: 'no answer before the deadline',
    });
  });

  it('maps 429 to RateLimited', async () => {
    const error = await failure({ method: 'POST', path: '/limited', json: {} });
    expect(error).toMatchObject({
      kind: 'RateLimited',
      outcomeUnknown: false,
      brokerMessage: 'rate limit reached, retry after 3 s',
    });
  });

  it('tells a Retry-After given as a date as that time, not as seconds', async () => {
    expect(await failure({ path: '/limited-until' })).toMatchObject({
      kind: 'RateLimited',
      brokerMessage: 'rate limit reached, retry after 2026-11-27T15:00:00.000Z',
    });
  });

  it('keeps the Retry-After on a rate limit, whichever mapping made it, for the read retry to wait for', async () => {
    expect(await failure({ path: '/limited' })).toMatchObject({ kind: 'RateLimited', retryAfter: '3' });
    const mapped = await createHttpClient({
      brokerTitle: 'Acme',
      baseUrl: `${baseUrl}/`,
      mapError: (response) =>
        response.status === 429 ? new BrokerError('RateLimited', 'Acme', 'slow down') : undefined,
    })
      .request({ path: '/limited-until' })
      .catch((error: unknown) => error);
    expect(mapped).toMatchObject({ kind: 'RateLimited', retryAfter: 'Fri, 27 Nov 2026 15:00:00 GMT' });
  });

  it('tells no time for a Retry-After that is neither seconds nor a date (not a date of 2001)', async () => {
    expect(await failure({ path: '/limited-odd' })).toMatchObject({
      kind: 'RateLimited',
      brokerMessage: 'rate limit reached',
    });
  });

  it('maps 401 to AuthenticationError with the broker message', async () => {
    expect(await failure({ path: '/unauthorized' })).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Acme: token expired',
    });
  });

  it('a 401/403 page or empty answer (a CDN, a firewall) is an outage, not a refused sign-in, before the adapter’s mapping', async () => {
    const adapterAuth = createHttpClient({
      brokerTitle: 'Acme',
      baseUrl,
      mapError: (response) => new BrokerError('AuthenticationError', 'Acme', `refused ${response.status}`),
    });
    for (const path of ['/waf', '/empty-401']) {
      await expect(adapterAuth.request({ path })).rejects.toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: false,
      });
      await expect(adapterAuth.request({ method: 'POST', path, json: {} })).rejects.toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: true,
      });
    }
    expect(await failure({ path: '/waf' })).toMatchObject({
      kind: 'BrokerUnavailable',
      message: 'Acme: HTTP 403',
    });
  });

  it('a broker that refuses credentials with an empty 401 keeps it a refusal; a page still is an outage', async () => {
    const empties = createHttpClient({ brokerTitle: 'Acme', baseUrl, emptyAuthRefusals: true });
    await expect(empties.request({ path: '/empty-401' })).rejects.toMatchObject({ kind: 'AuthenticationError' });
    await expect(empties.request({ path: '/waf' })).rejects.toMatchObject({ kind: 'BrokerUnavailable' });
  });

  it('maps 5xx to BrokerUnavailable, outcome unknown for a submission, HTML bodies not quoted', async () => {
    expect(await failure({ method: 'POST', path: '/broken', json: {} })).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      brokerMessage: 'HTTP 502',
    });
    expect(await failure({ path: '/broken' })).toMatchObject({ outcomeUnknown: false });
  });

  it('maps other 4xx to InvalidOrder with the broker message', async () => {
    expect(await failure({ method: 'POST', path: '/rejected', json: {} })).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Acme: Symbol not found',
    });
  });

  it('a 408, 409, 421, 425 or 499 to a submission is no proof of a refusal: outcome unknown, not InvalidOrder', async () => {
    for (const path of ['/gateway-timeout', '/client-closed', '/conflict', '/misdirected', '/too-early']) {
      expect(await failure({ method: 'POST', path, json: {} }), path).toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: true,
      });
      expect(await failure({ path }), path).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: false });
    }
  });

  it('a 5xx or inconclusive 4xx whose words the exception table names still leaves a submission undecided', async () => {
    const worded = createHttpClient({
      brokerTitle: 'Acme',
      baseUrl,
      exceptions: { broad: { 'not enough': 'InsufficientFunds', duplicate: 'DuplicateOrder' } },
    });
    const failed = (request: HttpRequest) =>
      worded.request(request).then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(await failed({ method: 'POST', path: '/internal-worded', json: {} })).toMatchObject({
      kind: 'InsufficientFunds',
      message: 'Acme: internal error: not enough resources',
      outcomeUnknown: true,
    });
    expect(await failed({ method: 'POST', path: '/conflict', json: {} })).toMatchObject({
      kind: 'DuplicateOrder',
      outcomeUnknown: true,
    });
    expect(await failed({ path: '/internal-worded' })).toMatchObject({ outcomeUnknown: false });
  });

  it('words naming a refused sign-in on a 5xx or inconclusive 4xx are an outage, never a refusal that deactivates', async () => {
    const worded = createHttpClient({
      brokerTitle: 'Acme',
      baseUrl,
      exceptions: { broad: { 'invalid token': 'AuthenticationError', duplicate: 'AuthenticationError' } },
    });
    const failed = (request: HttpRequest) =>
      worded.request(request).then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(await failed({ method: 'POST', path: '/internal-unauthorized', json: {} })).toMatchObject({
      kind: 'BrokerUnavailable',
      message: 'Acme: upstream: invalid token',
      outcomeUnknown: true,
    });
    expect(await failed({ path: '/internal-unauthorized' })).toMatchObject({ kind: 'BrokerUnavailable' });
    expect(await failed({ method: 'POST', path: '/conflict', json: {} })).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
    });
    expect(await failed({ path: '/unauthorized' })).toMatchObject({ kind: 'AuthenticationError' });
  });

  it('hands back accepted statuses instead of throwing', async () => {
    const response = await client().request({ path: '/missing', accept: [404] });
    expect(response).toMatchObject({ status: 404, body: undefined });
  });

  it('lets the adapter map an error answer first', async () => {
    const mapped = createHttpClient({
      brokerTitle: 'Acme',
      baseUrl,
      mapError: (response) =>
        response.status === 422 ? new BrokerError('InsufficientFunds', 'Acme', 'not enough') : undefined,
    });
    await expect(mapped.request({ method: 'POST', path: '/rejected' })).rejects.toMatchObject({
      kind: 'InsufficientFunds',
    });
  });

  it('maps a dropped connection to BrokerUnavailable with an unknown outcome', async () => {
    const error = await failure({ method: 'POST', path: '/drop', json: { qty: 1 } });
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true, brokerMessage: 'connection lost' });
  });

  it('an unreadable success answer to a submission leaves the outcome unknown', async () => {
    const error = await failure({ method: 'POST', path: '/garbled', json: {} });
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      brokerMessage: 'unreadable answer',
    });
  });

  it('a refused connection sent nothing: outcome known', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = createHttpClient({ brokerTitle: 'Acme', baseUrl: `http://127.0.0.1:${port}` });
    await expect(refused.request({ method: 'POST', path: '/orders', json: {} })).rejects.toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: false,
      brokerMessage: 'cannot reach the broker',
    });
  });
});
