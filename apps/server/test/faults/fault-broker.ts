// A broker that misbehaves on demand, reached by the real server over loopback HTTP exactly as in
// production: the Alpaca protocol fake (packages/brokers) behind a small proxy that, for order
// submissions (POST /v2/orders), can answer slowly, never answer, answer 5xx, or drop the
// connection after the broker accepted the order. Lookups by client order id always pass (after
// `lookupDelayMs`, counted per id), so reconciliation can ask. The server is pointed at it with
// ALPACA_BASE_URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeAlpaca, startFakeAlpaca } from '../../../../packages/brokers/src/adapters/alpaca/fake.ts';

export type FaultMode =
  /** Forward and answer as the broker does. */
  | 'pass'
  /** Forward at once (the order exists), answer after `delayMs`. */
  | 'slow'
  /** Never answer and never forward: the client's own timeout ends it. */
  | 'hang'
  /** Forward (the order exists), then never answer. */
  | 'hang-after-accept'
  /** Answer 503 without forwarding: no order. */
  | 'error-5xx'
  /** Forward (the order exists), then answer 500 instead of the broker's answer. */
  | 'error-after-accept'
  /** Forward (the order exists), then destroy the socket without an answer. */
  | 'drop-after-accept';

export interface FaultBroker {
  url: string;
  fake: FakeAlpaca;
  credentials: string[];
  mode: FaultMode;
  delayMs: number;
  /** Submissions seen by the proxy, by mode. */
  seen: Record<string, number>;
  /** Order lookups by client order id, per id. */
  lookups: Map<string, number>;
  /** How long a lookup waits before it is forwarded. */
  lookupDelayMs: number;
  /** client_order_id of every order the broker has (the fake's book). */
  orderIds(): string[];
  close(): Promise<void>;
}

const HANG_LIMIT_MS = 60_000;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFaultBroker(): Promise<FaultBroker> {
  const fake = await startFakeAlpaca({ cash: 1e12 });
  const hanging = new Set<http.ServerResponse>();
  const handle: FaultBroker = {
    url: '',
    fake,
    credentials: [fake.keys.apiKeyId, fake.keys.apiSecretKey],
    mode: 'pass',
    delayMs: 0,
    seen: {},
    lookups: new Map(),
    lookupDelayMs: 0,
    orderIds: () => fake.orders.map((o) => o.client_order_id).filter((id): id is string => Boolean(id)),
    close: async () => {},
  };

  const forward = async (req: http.IncomingMessage, body: string) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
    }
    const res = await fetch(`${fake.url}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body ? { body } : {}),
    });
    return { status: res.status, type: res.headers.get('content-type') ?? 'application/json', text: await res.text() };
  };

  const hang = (res: http.ServerResponse) => {
    hanging.add(res);
    const timer = setTimeout(() => res.destroy(), HANG_LIMIT_MS);
    res.on('close', () => {
      clearTimeout(timer);
      hanging.delete(res);
    });
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const isSubmission = req.method === 'POST' && (req.url ?? '').startsWith('/v2/orders');
      const mode = isSubmission ? handle.mode : 'pass';
      if (isSubmission) handle.seen[mode] = (handle.seen[mode] ?? 0) + 1;
      const lookedUp =
        req.method === 'GET' ? new URL(req.url ?? '/', 'http://x').searchParams.get('client_order_id') : null;
      if (lookedUp) {
        handle.lookups.set(lookedUp, (handle.lookups.get(lookedUp) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, handle.lookupDelayMs));
      }
      if (mode === 'hang') return hang(res);
      if (mode === 'error-5xx') {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ code: 50300000, message: 'service unavailable' }));
      }
      const answer = await forward(req, body);
      if (mode === 'hang-after-accept') return hang(res);
      if (mode === 'drop-after-accept') return req.socket.destroy();
      if (mode === 'error-after-accept') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ code: 50000000, message: 'internal server error' }));
      }
      if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, handle.delayMs));
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  handle.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fake.close();
  };
  return handle;
}
