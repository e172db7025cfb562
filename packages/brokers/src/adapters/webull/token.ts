// Webull's 2FA access token (WIRE.md §1, the SDK's client_initializer and token_manager). GET
// /openapi/config says whether the account checks one (`token_check_enabled`). If so, POST
// /openapi/auth/token/create answers {token, expires, status}; PENDING until the user approves
// in the Webull app, which /openapi/auth/token/check is polled for (NORMAL: approved; INVALID or
// EXPIRED: start over). The token goes out as `x-access-token`, lasts about 15 days (`expires`,
// ms) and POST /openapi/auth/token/refresh renews it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, stringField } from '../../core/json-read.ts';
import { signedRequest, type WebullClientOptions, type WebullKeys } from './api.ts';
import { WEBULL_TITLE } from './descriptor.ts';

export interface AccessToken {
  token: string;
  /** ms since epoch. */
  expires: number;
}

export interface TokenPolling {
  /** Between two checks (the SDK waits 5 s). */
  intervalMs: number;
  /** How long the user has to approve in the app before connecting fails. */
  maxWaitMs: number;
}

const authError = (message: string) => new BrokerError('AuthenticationError', WEBULL_TITLE, message);

function tokenOf(body: unknown): { token: string; expires: number; status: string } {
  const token = stringField(body, 'token');
  const expires = decimalField(body, 'expires');
  const status = stringField(body, 'status');
  if (!token || !expires || !status)
    throw new BrokerError('BrokerUnavailable', WEBULL_TITLE, 'unexpected token answer');
  return { token, expires, status };
}

type Post = (path: string, json: Record<string, string>) => Promise<unknown>;

function poster(ctx: BrokerContext, baseUrl: string, keys: WebullKeys, options: WebullClientOptions): Post {
  return async (path, json) =>
    (await signedRequest(ctx, baseUrl, keys, { method: 'POST', path, json, mutating: false }, options)).body;
}

/** Whether the account checks a 2FA token (Webull's per-app setting). */
export async function tokenRequired(
  ctx: BrokerContext,
  baseUrl: string,
  keys: WebullKeys,
  options: WebullClientOptions,
): Promise<boolean> {
  const { body } = await signedRequest(ctx, baseUrl, keys, { path: '/openapi/config' }, options);
  return asRecord(body)?.token_check_enabled === true;
}

/** A verified token: created, then checked until the user approves it in the Webull app. */
export async function approvedToken(
  ctx: BrokerContext,
  baseUrl: string,
  keys: WebullKeys,
  options: WebullClientOptions & { polling: TokenPolling },
): Promise<AccessToken> {
  const post = poster(ctx, baseUrl, keys, options);
  let current = tokenOf(await post('/openapi/auth/token/create', {}));
  // Real time, not the injected clock: the user approves on a phone.
  const deadline = performance.now() + options.polling.maxWaitMs;
  while (current.status !== 'NORMAL') {
    if (current.status === 'INVALID' || current.status === 'EXPIRED')
      throw authError(`the sign-in was ${current.status.toLowerCase()} in the Webull app; connect again`);
    if (performance.now() + options.polling.intervalMs > deadline)
      throw authError('the sign-in was not approved in the Webull app in time; connect again and approve it there');
    await sleep(options.polling.intervalMs, undefined, ctx.signal ? { signal: ctx.signal } : {});
    current = tokenOf(await post('/openapi/auth/token/check', { token: current.token }));
  }
  return { token: current.token, expires: current.expires };
}

/** A renewed token; anything but NORMAL means the user must approve a new sign-in. */
export async function renewedToken(
  ctx: BrokerContext,
  baseUrl: string,
  keys: WebullKeys,
  options: WebullClientOptions,
): Promise<AccessToken> {
  const renewed = tokenOf(
    await poster(ctx, baseUrl, keys, options)('/openapi/auth/token/refresh', { token: keys.accessToken ?? '' }),
  );
  if (renewed.status !== 'NORMAL') throw authError(`the Webull sign-in is ${renewed.status.toLowerCase()}; reconnect`);
  return { token: renewed.token, expires: renewed.expires };
}
