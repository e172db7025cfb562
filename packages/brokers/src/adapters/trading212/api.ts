// Trading 212 calls: HTTP Basic with the API key and secret (a legacy key alone goes raw in
// Authorization), on the live or the demo origin the connection was found on. Refusals:
//   400 {"code":"InsufficientFreeForStocksException","clarification":"..."}; 401 bad key; 403 missing
//   permission; 408 timed out at Trading 212; 429 with x-ratelimit-reset (unix seconds).
import type { BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { type EnvironmentKind, environmentBaseUrl } from '../../core/environments.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpClient, type HttpResponse } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { stringField } from '../../core/json-read.ts';
import { TRADING212_ENVIRONMENTS, TRADING212_TITLE, trading212Descriptor } from './descriptor.ts';

const READABLE: Record<string, string> = {
  InsufficientFreeForStocksException: 'insufficient funds',
  InsufficientResources: 'insufficient funds',
  SellingEquityNotOwned: 'selling more shares than held',
  InstrumentNotFound: 'instrument not found',
  MinQuantityExceeded: 'quantity below the minimum',
  MaxQuantityExceeded: 'quantity above the maximum',
  QuantityPrecisionMismatch: 'too many decimals in the quantity',
  NotAvailableForRealMoneyAccounts: 'not available for real money accounts',
  PriceTooFar: 'price too far from the market',
};

function trading212Error(response: HttpResponse, mutating: boolean): BrokerError | undefined {
  const { status, body } = response;
  const code = stringField(body, 'code');
  const detail = stringField(body, 'clarification') ?? messageOf(body);
  const message = (code && READABLE[code]) || detail || code;
  if (status === 400) {
    const kind = matchException(trading212Descriptor.exceptions, code) ?? 'InvalidOrder';
    return new BrokerError(kind, TRADING212_TITLE, message ?? 'order refused');
  }
  if (status === 401) return new BrokerError('AuthenticationError', TRADING212_TITLE, 'API key or secret refused');
  if (status === 403) {
    // A scope the key lacks (orders:execute): a refusal of that order or cancel, which leaves the
    // connection alone; only 401 refuses the key itself. A read the key may not make stays one.
    return new BrokerError(
      mutating ? 'InvalidOrder' : 'AuthenticationError',
      TRADING212_TITLE,
      message ?? 'the API key lacks a permission this needs',
    );
  }
  if (status === 404) return new BrokerError('OrderNotFound', TRADING212_TITLE, message ?? 'not found');
  if (status === 408)
    return new BrokerError('BrokerUnavailable', TRADING212_TITLE, 'timed out', { outcomeUnknown: mutating });
  if (status === 429) {
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    const wait = Number.isFinite(reset) && reset > 0 ? `, resets at ${new Date(reset * 1000).toISOString()}` : '';
    return new BrokerError('RateLimited', TRADING212_TITLE, `rate limit reached${wait}`);
  }
  return undefined;
}

export function authorizationOf(apiKey: string, apiSecret: string | undefined): string {
  return apiSecret ? `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}` : apiKey;
}

export function clientFor(
  ctx: BrokerContext,
  baseUrl: string,
  apiKey: string,
  apiSecret: string | undefined,
  fetchImpl?: typeof fetch,
): HttpClient {
  return createHttpClient({
    brokerTitle: TRADING212_TITLE,
    baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    headers: { authorization: authorizationOf(apiKey, apiSecret) },
    mapError: trading212Error,
    // Trading 212 answers a bad key 401 and a missing scope 403 with no body.
    emptyAuthRefusals: true,
  });
}

/** The client of a connected session. */
export function sessionClient(ctx: BrokerContext, secrets: BrokerSecrets, fetchImpl?: typeof fetch): HttpClient {
  const { apiKey, apiSecret, environment } = secrets;
  if (!apiKey) throw new BrokerError('AuthenticationError', TRADING212_TITLE, 'no API key; connect again');
  const kind: EnvironmentKind = environment === 'demo' ? 'demo' : 'live';
  return clientFor(ctx, environmentBaseUrl(ctx, TRADING212_ENVIRONMENTS, kind), apiKey, apiSecret, fetchImpl);
}
