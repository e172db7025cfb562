// OAuth 1.0a request signing as E*TRADE checks it (RFC 5849, HMAC-SHA1; WIRE.md §1). Shared by
// the adapter and its protocol fake, which recomputes the signature from the request it got:
//   base string = METHOD & enc(URL without query) & enc(sorted "enc(k)=enc(v)" of oauth_* and query, joined by &)
//   key         = enc(consumer secret) & enc(token secret)        (token secret empty for request_token)
//   header      = OAuth realm="",oauth_consumer_key="…",oauth_token="…",…,oauth_signature="…"
// Bodies (JSON) are not signed.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 3986 percent-encoding: letters, digits and -._~ stay, everything else is %XX. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function signatureBaseString(method: string, url: URL, oauth: Record<string, string>): string {
  const pairs = [...Object.entries(oauth), ...url.searchParams.entries()]
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  // Scheme and host in lower case, a default port left out (URL drops it), the path as sent.
  const baseUri = `${url.protocol}//${url.host.toLowerCase()}${url.pathname}`;
  return `${method.toUpperCase()}&${percentEncode(baseUri)}&${percentEncode(pairs)}`;
}

export function hmacSha1(base: string, consumerSecret: string, tokenSecret = ''): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(base, 'utf8').digest('base64');
}

export interface OAuthSigner {
  consumerKey: string;
  consumerSecret: string;
  /** Request or access token, absent when asking for a request token. */
  token?: string;
  tokenSecret?: string;
}

export function oauthNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The Authorization header of one request; `extra` adds oauth_callback or oauth_verifier. */
export function authorizationHeader(
  method: string,
  url: URL,
  signer: OAuthSigner,
  now: number,
  extra: Record<string, string> = {},
): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: signer.consumerKey,
    ...(signer.token ? { oauth_token: signer.token } : {}),
    oauth_nonce: oauthNonce(),
    oauth_timestamp: String(Math.floor(now / 1000)),
    oauth_signature_method: 'HMAC-SHA1',
    ...extra,
  };
  const signature = hmacSha1(signatureBaseString(method, url, oauth), signer.consumerSecret, signer.tokenSecret);
  const fields = Object.entries({ ...oauth, oauth_signature: signature })
    .map(([key, value]) => `${key}="${percentEncode(value)}"`)
    .join(',');
  return `OAuth realm="",${fields}`;
}

/** The oauth_* parameters of an Authorization header (decoded), or undefined when it is not OAuth. */
export function parseAuthorization(header: string | undefined): Record<string, string> | undefined {
  const match = /^OAuth\s+(.*)$/i.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const params: Record<string, string> = {};
  for (const part of (match[1] ?? '').split(',')) {
    const pair = /^\s*([A-Za-z0-9_]+)="([^"]*)"\s*$/.exec(part);
    if (!pair) return undefined;
    const [, key = '', value = ''] = pair;
    try {
      params[key] = decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return params;
}

/** Constant-time comparison of two signatures. */
export function sameSignature(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
