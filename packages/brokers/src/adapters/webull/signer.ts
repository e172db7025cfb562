// Webull's request signature (WIRE.md §1, the SDK's default_signature_composer): the five x-…
// signing headers (lower-case names), `host` and every query parameter, sorted by name and joined
// as k=v with &, prefixed by the path and followed by the upper-case hex digest of the exact body;
// the whole string percent-encoded with only A-Z a-z 0-9 - . _ ~ left as they are; HMAC over it
// with the key `app_secret&`, base64. Hosts Webull has not moved to SHA-256 (api.webull.com, the
// UAT host, …) sign with HMAC-SHA1 and an MD5 body digest; any other host with HMAC-SHA256 and
// SHA-256. The fake verifies with the algorithm the request names.
import { createHash, createHmac } from 'node:crypto';

const SHA1_HOSTS = new Set([
  'api.webull.com',
  'events-api.webull.com',
  'api.webull.hk',
  'events-api.webull.hk',
  'pre-openapi-us-alb.webullbroker.com',
  'pre-openapi-us-events.webullbroker.com',
  'pre-openapi-alb.webullbroker.com',
  'pre-openapi-events.webullbroker.com',
  'us-openapi-alb.uat.webullbroker.com',
  'us-openapi-events.uat.webullbroker.com',
  'hk-openapi.uat.webullbroker.com',
  'hk-openapi-events-api.uat.webullbroker.com',
  'api.sandbox.webull.hk',
  'events-api.sandbox.webull.hk',
]);

export type SignatureAlgorithm = 'HMAC-SHA1' | 'HMAC-SHA256';

export function algorithmFor(host: string): SignatureAlgorithm {
  return SHA1_HOSTS.has(host) ? 'HMAC-SHA1' : 'HMAC-SHA256';
}

export interface SignatureInput {
  algorithm: SignatureAlgorithm;
  /** The API host name, without a port. */
  host: string;
  path: string;
  query: Readonly<Record<string, string>>;
  /** The exact bytes sent; undefined without a body. */
  body: string | undefined;
  appKey: string;
  appSecret: string;
  /** UTC YYYY-MM-DDTHH:MM:SSZ. */
  timestamp: string;
  nonce: string;
}

/** Python's quote(s, safe=''): everything but unreserved characters as %XX of its UTF-8 bytes. */
function quoteAll(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The headers the signature covers, with the values a request sends. */
export function signingHeaders(input: Pick<SignatureInput, 'algorithm' | 'appKey' | 'timestamp' | 'nonce'>) {
  return {
    'x-app-key': input.appKey,
    'x-timestamp': input.timestamp,
    'x-signature-version': '1.0',
    'x-signature-algorithm': input.algorithm,
    'x-signature-nonce': input.nonce,
  };
}

export function bodyDigest(algorithm: SignatureAlgorithm, body: string): string {
  return createHash(algorithm === 'HMAC-SHA1' ? 'md5' : 'sha256')
    .update(body, 'utf8')
    .digest('hex')
    .toUpperCase();
}

/** The percent-encoded string Webull signs. */
export function stringToSign(input: SignatureInput): string {
  const params: Record<string, string> = { ...signingHeaders(input), host: input.host };
  for (const [key, value] of Object.entries(input.query)) {
    params[key] = params[key] === undefined ? value : `${params[key]}&${value}`;
  }
  const pairs = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`);
  const digest = input.body !== undefined ? `&${bodyDigest(input.algorithm, input.body)}` : '';
  return quoteAll(`${input.path}&${pairs.join('&')}${digest}`);
}

export function signature(input: SignatureInput): string {
  return createHmac(input.algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', `${input.appSecret}&`)
    .update(stringToSign(input))
    .digest('base64');
}

/** "2026-06-09T14:31:02Z": Webull's timestamp, seconds only. */
export function webullTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
