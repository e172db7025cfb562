// Test support for the E*TRADE contract tests: a fake and the adapter on one movable clock, the
// consent page passed through (callback registered), orders from signals.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { toProvider } from '../../core/registry.ts';
import { createEtradeBroker } from './adapter.ts';
import { etradeDescriptor } from './descriptor.ts';
import { type EtradeFake, type EtradeFakeOptions, FAKE_ACCOUNT, FAKE_APP, startEtradeFake } from './fake.ts';
import { authorizationHeader } from './oauth1.ts';

export const MINUTE = 60_000;
export const ACCOUNT = FAKE_ACCOUNT.accountIdKey;
export const CALLBACK = 'http://127.0.0.1:3000/callback/etrade';
/** A signal id as the server makes them: 20 base62 characters. */
export const SIGNAL_ID = '0ZqN3hJ5sig20260609x';

const provider = toProvider(etradeDescriptor);
export const toOrder = (signal: Record<string, unknown>): Order =>
  normalizeOrderOrThrow(signal, { provider, now: () => Date.parse('2026-06-09T14:31:00Z') });

export function useEtradeFake(options: EtradeFakeOptions = {}) {
  // 10:31 in New York on a June trading day.
  const clock = { time: Date.parse('2026-06-09T14:31:00Z') };
  const broker = createEtradeBroker();
  const t = {
    clock,
    broker,
    fake: undefined as unknown as EtradeFake,
    ctx: undefined as unknown as BrokerContext,
    /** Through the consent page, as the user signs in: the verifier arrives at the callback. */
    async connect(): Promise<BrokerSession> {
      const { requestUrl, pending } = await broker.startAuthorization(t.ctx, 'state');
      const consent = await fetch(requestUrl, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location') ?? '');
      return broker.connect(t.ctx, {
        credentials: { oauth_verifier: back.searchParams.get('oauth_verifier') ?? '' },
        ...(pending ? { pending } : {}),
      });
    },
    place: (session: BrokerSession, signal: Record<string, unknown>, clientOrderId = SIGNAL_ID) =>
      broker.placeOrder(t.ctx, session, { accountId: ACCOUNT, order: toOrder(signal), clientOrderId }),
    /** A request signed with the session's token, as a client other than the adapter sends it. */
    signed(session: BrokerSession, method: string, path: string, body?: unknown) {
      const url = new URL(`${t.fake.baseUrl}${path}`);
      const signer = { ...FAKE_APP, token: session.secrets.accessToken, tokenSecret: session.secrets.tokenSecret };
      return fetch(url, {
        method,
        headers: {
          authorization: authorizationHeader(method, url, signer, clock.time),
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    },
    calls: () => t.fake.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`),
    bodies: (suffix: string) =>
      t.fake.requests.filter((r) => r.url.split('?')[0]?.endsWith(suffix)).map((r) => JSON.parse(r.body) as unknown),
  };
  beforeAll(async () => {
    t.fake = await startEtradeFake({ now: () => clock.time, quotes: { AAPL: 175, MSFT: 410 }, ...options });
    t.fake.oauth.registerCallback(FAKE_APP.consumerKey, CALLBACK);
    t.ctx = {
      baseUrl: t.fake.baseUrl,
      clientId: FAKE_APP.consumerKey,
      clientSecret: FAKE_APP.consumerSecret,
      redirectUrl: CALLBACK,
      now: () => clock.time,
    };
  });
  afterAll(() => t.fake.close());
  beforeEach(() => {
    t.fake.requests.length = 0;
  });
  return t;
}
