// Protocol fake of Robinhood's Crypto Trading API on 127.0.0.1 (broker-specs/robinhood/WIRE.md):
// every request's Ed25519 signature is verified over the exact path and body received, within
// 30 s of its timestamp; missing headers get Robinhood's 400 text; a token bucket answers 429;
// v1 and v2 routes (v2 needs account_number); paginated lists with full `next` URLs; order bodies
// validated as Robinhood does (fake-book.ts). Market orders answer `open` and fill right after.
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { registerRobinhoodRoutes } from './fake-routes.ts';
import { privateKeyFrom, publicKeyBytes, verifySignature } from './signing.ts';

/** The docs' signing example key (fixtures/signature-vector.json): the fake's default credentials. */
export const DOCS_API_KEY = 'rh-api-6148effc-c0b1-486c-8940-a1d099456be6';
export const DOCS_PRIVATE_KEY = 'xQnTJVeQLmw1/Mg2YimEViSpw/SdJcgNXZ5kQkAXNPU=';

export const MISSING_HEADERS =
  'Request missing required headers. Required headers: x-api-key, x-signature, x-timestamp. ' +
  'Please refer to API documentation for more information.';
const TIMESTAMP_WINDOW_S = 30;

export interface RobinhoodFakeOptions {
  apiKey?: string;
  privateKey?: string;
  accountNumber?: string;
  cash?: number;
  /** Coins held at the start, by asset code. */
  holdings?: Record<string, number>;
  /** Whether the v2 routes answer (default true). */
  v2?: boolean;
  now?: () => number;
  /** Page size of lists (default 100). */
  pageSize?: number;
}

const clientError = (detail: string) => ({ type: 'client_error', errors: [{ detail, attr: null }] });

export async function startRobinhoodFake(options: RobinhoodFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const apiKey = options.apiKey ?? DOCS_API_KEY;
  const privateKey = options.privateKey ?? DOCS_PRIVATE_KEY;
  const key = privateKeyFrom(privateKey);
  if (!key) throw new Error('the fake needs an Ed25519 private key');
  const publicKey = publicKeyBytes(key).toString('base64');
  const bucket = { tokens: 300, at: now() };

  const server = createFakeServer({
    authenticate(request, reply, body) {
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const [sentKey, timestamp, signature] = ['x-api-key', 'x-timestamp', 'x-signature'].map(header);
      if (!sentKey || !timestamp || !signature) {
        reply.code(400).type('text/plain').send(MISSING_HEADERS);
        return false;
      }
      const fresh = /^\d+$/.test(timestamp) && Math.abs(now() / 1000 - Number(timestamp)) <= TIMESTAMP_WINDOW_S;
      const signed = { apiKey: sentKey, timestamp: Number(timestamp), path: request.url, method: request.method, body };
      const refusal =
        sentKey !== apiKey
          ? 'Invalid API key.'
          : !fresh
            ? 'Timestamp is invalid or expired.'
            : !verifySignature(signed, publicKey, signature)
              ? 'Invalid signature.'
              : undefined;
      if (refusal) {
        reply.code(401).send(clientError(refusal));
        return false;
      }
      // Robinhood's token bucket: 300 at most, 100 more a minute.
      bucket.tokens = Math.min(300, bucket.tokens + ((now() - bucket.at) * 100) / 60_000);
      bucket.at = now();
      if (bucket.tokens < 1) {
        reply.code(429).send(clientError('Request was throttled. Expected available in 1 second.'));
        return false;
      }
      bucket.tokens -= 1;
      return true;
    },
  });

  const state = registerRobinhoodRoutes(server.app, {
    accountNumber: options.accountNumber ?? '987654321',
    cash: options.cash ?? 100_000,
    holdings: options.holdings ?? { BTC: 0.5, ETH: 2 },
    v2: options.v2 ?? true,
    now,
    pageSize: options.pageSize ?? 100,
  });
  const url = await server.listen();
  return {
    url,
    credentials: { apiKey, privateKey },
    ...state,
    requests: server.requests,
    inject: server.inject,
    clearInjections: server.clearInjections,
    /** Empties the rate-limit bucket (the next request is answered 429). */
    exhaustRateLimit: () => {
      bucket.tokens = 0;
      bucket.at = now();
    },
    /** Fills the rate-limit bucket again (300 requests). */
    refillRateLimit: () => {
      bucket.tokens = 300;
      bucket.at = now();
    },
    close: () => server.app.close(),
  };
}

export type RobinhoodFake = Awaited<ReturnType<typeof startRobinhoodFake>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startRobinhoodFake();
  return {
    config: { baseUrl: fake.url },
    credentials: () => fake.credentials,
    signal: { symbol: 'BTC-USD', action: 'buy', quantity: 0.001 },
    orderCount: () => fake.orders.length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
