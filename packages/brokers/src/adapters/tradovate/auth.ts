// Tradovate's credentials grant and its renewal (WIRE.md §1):
//   POST /auth/accesstokenrequest {"name","password","appId","appVersion","deviceId","cid","sec"}
//     → {"accessToken","mdAccessToken","expirationTime","passwordExpirationTime","userStatus","hasLive",…}
//       or HTTP 200 {"errorText": "Incorrect username or password. Please try again."}
//   GET /auth/renewaccesstoken (Bearer) → the same shape, a new token in the same session.
// Each accesstokenrequest opens a session and Tradovate closes the oldest beyond two, so tokens
// are renewed; a new sign-in happens only when renewal is refused (the token has run out).

import { uuidFor } from '../../ccxt/client-id.ts';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { AUTH_PENALTY_WAIT_S, tradovateCall } from './api.ts';
import { TRADOVATE_TITLE } from './descriptor.ts';

export const APP_ID = 'signal-router';
export const APP_VERSION = '1.0';
/** Tradovate advises renewing about 15 minutes before the token expires. */
export const RENEW_MARGIN_MS = 15 * 60_000;
/** The documented lifetime, used only when an answer lacks expirationTime. */
const TOKEN_LIFETIME_MS = 80 * 60_000;

export interface TradovateCredentials {
  username: string;
  password: string;
  cid: number;
  secret: string;
  deviceId: string;
}

export interface TradovateToken {
  accessToken: string;
  expiresAt: number;
  /** When the password must be changed: the connection stops working then. */
  passwordExpiresAt?: number;
  hasLive: boolean;
}

const refused = (message: string) => new BrokerError('AuthenticationError', TRADOVATE_TITLE, message);

/** The credentials as entered on the connect form; the device id is derived so it stays the same. */
export function readCredentials(values: Record<string, string | undefined>): TradovateCredentials {
  const username = values.username?.trim() ?? '';
  const password = values.password ?? '';
  const secret = values.secret?.trim() ?? '';
  const cidText = values.cid?.trim() ?? '';
  if (!username || !password || !cidText || !secret)
    throw refused('username, password, API key cid and secret are required');
  const cid = Number(cidText);
  if (!Number.isSafeInteger(cid) || cid <= 0) throw refused('the API key cid is a number');
  // One stable id per user and key: Tradovate tracks devices, strictly so on live.
  const deviceId = values.deviceId?.trim() || uuidFor(`tradovate-device:${username.toLowerCase()}:${cid}`);
  return { username, password, cid, secret, deviceId };
}

function tokenOf(body: unknown, now: number): TradovateToken {
  const accessToken = stringField(body, 'accessToken');
  if (!accessToken) throw new BrokerError('BrokerUnavailable', TRADOVATE_TITLE, 'no access token in the answer');
  const status = stringField(body, 'userStatus');
  if (status && status !== 'Active') throw refused(`the Tradovate user is ${status}`);
  const expiration = Date.parse(stringField(body, 'expirationTime') ?? '');
  const passwordExpiration = Date.parse(stringField(body, 'passwordExpirationTime') ?? '');
  return {
    accessToken,
    expiresAt: Number.isFinite(expiration) ? expiration : now + TOKEN_LIFETIME_MS,
    ...(Number.isFinite(passwordExpiration) ? { passwordExpiresAt: passwordExpiration } : {}),
    hasLive: asRecord(body)?.hasLive === true,
  };
}

/** Signs in: a new Tradovate session. */
export async function requestToken(
  ctx: BrokerContext,
  baseUrl: string,
  credentials: TradovateCredentials,
  now: number,
): Promise<TradovateToken> {
  const { body } = await tradovateCall(ctx, baseUrl, undefined, {
    path: '/auth/accesstokenrequest',
    json: {
      name: credentials.username,
      password: credentials.password,
      appId: APP_ID,
      appVersion: APP_VERSION,
      deviceId: credentials.deviceId,
      cid: credentials.cid,
      sec: credentials.secret,
    },
    refusal: 'AuthenticationError',
    patienceS: AUTH_PENALTY_WAIT_S,
  });
  return tokenOf(body, now);
}

/** Renews the token in its session; a refused renewal (token run out) signs in again. */
export async function renewToken(
  ctx: BrokerContext,
  baseUrl: string,
  accessToken: string,
  credentials: TradovateCredentials,
  now: number,
): Promise<TradovateToken> {
  try {
    const { body } = await tradovateCall(ctx, baseUrl, accessToken, {
      path: '/auth/renewaccesstoken',
      refusal: 'AuthenticationError',
    });
    return tokenOf(body, now);
  } catch (error) {
    if (!isBrokerError(error) || error.kind !== 'AuthenticationError') throw error;
    return requestToken(ctx, baseUrl, credentials, now);
  }
}
