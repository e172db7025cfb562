// Alpaca over the shared HTTP client: key headers, the connection's environment (live or paper)
// and Alpaca's error bodies, {"code": 40310000, "message": "insufficient buying power"}.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type BrokerEnvironments, type EnvironmentKind, environmentBaseUrl } from '../../core/environments.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { createHttpClient, type HttpClient, type HttpResponse } from '../../core/http.ts';
import { stringField } from '../../core/json-read.ts';
import { ALPACA_TITLE, alpacaDescriptor } from './descriptor.ts';

export interface AlpacaKeys {
  apiKeyId: string;
  apiSecretKey: string;
}

/** A 403 the descriptor's table did not name (a wrong key is named there) is a refused order. */
function alpacaError(response: HttpResponse): BrokerError | undefined {
  const message = stringField(response.body, 'message');
  return response.status === 403 && message ? new BrokerError('InvalidOrder', ALPACA_TITLE, message) : undefined;
}

export function alpacaClient(ctx: BrokerContext, baseUrl: string, keys: AlpacaKeys): HttpClient {
  return createHttpClient({
    brokerTitle: ALPACA_TITLE,
    baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    headers: { 'APCA-API-KEY-ID': keys.apiKeyId, 'APCA-API-SECRET-KEY': keys.apiSecretKey },
    exceptions: alpacaDescriptor.exceptions,
    mapError: alpacaError,
  });
}

/** The client of a connected session; its keys and environment come from the stored secrets. */
export function sessionClient(
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  environments: BrokerEnvironments,
): HttpClient {
  const { apiKeyId, apiSecretKey, environment } = session.secrets;
  if (!apiKeyId || !apiSecretKey) throw new BrokerError('AuthenticationError', ALPACA_TITLE, 'reconnect: keys missing');
  checkAccountInConnection(ALPACA_TITLE, session, accountId);
  const kind: EnvironmentKind = environment === 'paper' ? 'demo' : 'live';
  return alpacaClient(ctx, environmentBaseUrl(ctx, environments, kind), { apiKeyId, apiSecretKey });
}
