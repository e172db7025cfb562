// Tradier over the shared HTTP client: Bearer token, JSON answers (Tradier answers XML unless
// asked), the connection's environment. Error bodies, read by the descriptor's exception table:
//   401 text/plain "Invalid Access Token"     400 {"errors": {"error": ["You do not have enough buying power …"]}}
// A 403 on an order call is that order refused (InvalidOrder); elsewhere, and 401, the connection.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type BrokerEnvironments, environmentBaseUrl } from '../../core/environments.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { createHttpClient, type HttpClient } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { TRADIER_TITLE, tradierDescriptor } from './descriptor.ts';

/** Order calls: place, preview, cancel and the order lookups of an account. */
const ORDER_PATH = /^\/v1\/accounts\/[^/]+\/orders(\/|$)/;

export function tradierClient(ctx: BrokerContext, baseUrl: string, accessToken: string): HttpClient {
  return createHttpClient({
    brokerTitle: TRADIER_TITLE,
    baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    exceptions: tradierDescriptor.exceptions,
    // Tradier refuses the token with 401 "Invalid Access Token": a 403 on an order call is a
    // refusal of that order (the account may not trade it), not of the connection.
    mapError: (response, _mutating, { path }) =>
      response.status === 403 && ORDER_PATH.test(path)
        ? new BrokerError('InvalidOrder', TRADIER_TITLE, messageOf(response.body) ?? 'order not allowed')
        : undefined,
  });
}

/** The client of a connected session, for one of its accounts. */
export function sessionClient(
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  environments: BrokerEnvironments,
): HttpClient {
  const { accessToken, environment } = session.secrets;
  if (!accessToken) throw new BrokerError('AuthenticationError', TRADIER_TITLE, 'reconnect: access token missing');
  checkAccountInConnection(TRADIER_TITLE, session, accountId);
  const baseUrl = environmentBaseUrl(ctx, environments, environment === 'sandbox' ? 'demo' : 'live');
  return tradierClient(ctx, baseUrl, accessToken);
}

export const accountPath = (accountId: string, rest = '') => `/v1/accounts/${encodeURIComponent(accountId)}${rest}`;
