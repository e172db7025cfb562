// The cryptography of IBKR's OAuth 1.0a (WIRE.md §1, after IBKR's published Python example as
// ibind implements it): a live session token (LST) agreed by Diffie-Hellman and keyed by the
// decrypted access token secret, then every request signed HMAC-SHA256 with it. Shared by the
// adapter and its protocol fake, which must compute the same values from the other side.
//   base string = [prepend] METHOD & quote_plus(url without query) & quote_plus(sorted "k=v" joined by &)
import { createHmac, createPrivateKey, createSign, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';

/** Python's urllib.parse.quote_plus: unreserved characters kept, space as "+". */
export function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export function baseString(method: string, url: string, params: Record<string, string>, prepend = ''): string {
  const pairs = Object.entries(params)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return `${prepend}${method.toUpperCase()}&${quotePlus(url)}&${quotePlus(pairs)}`;
}

/** `OAuth realm="limited_poa", k="v", …`, keys sorted; the signature is already URL-quoted. */
export function authorizationHeader(params: Record<string, string>, realm: string): string {
  const pairs = Object.entries(params)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}="${value}"`);
  return `OAuth realm="${realm}", ${pairs.join(', ')}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function oauthNonce(): string {
  return [...randomBytes(16)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

export function rsaSignature(base: string, key: KeyObject): string {
  return quotePlus(createSign('sha256').update(base, 'utf8').sign(key, 'base64'));
}

export function hmacSignature(base: string, liveSessionToken: string): string {
  const key = Buffer.from(liveSessionToken, 'base64');
  return quotePlus(createHmac('sha256', key).update(base, 'utf8').digest('base64'));
}

/** Constant-time equality of two strings (signatures compared by the fake, LST checks). */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A PEM pasted into a one-line field arrives without its line breaks: rebuilt from its parts. */
export function normalizePem(text: string): string | undefined {
  const match = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(text.trim());
  if (!match) return undefined;
  const [, label = '', body = ''] = match;
  const base64 = body.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(base64)) return undefined;
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** An unencrypted RSA private key, PKCS#1 or PKCS#8; undefined when the text is none. */
export function rsaPrivateKey(text: string): KeyObject | undefined {
  const pem = normalizePem(text);
  if (!pem) return undefined;
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'rsa' ? key : undefined;
  } catch {
    return undefined;
  }
}

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let factor = base % modulus;
  let rest = exponent;
  while (rest > 0n) {
    if (rest & 1n) result = (result * factor) % modulus;
    factor = (factor * factor) % modulus;
    rest >>= 1n;
  }
  return result;
}

/** Java's BigInteger.toByteArray for a positive number: big-endian, a zero first when the top bit is set. */
export function bigIntBytes(value: bigint): Buffer {
  const hex = value.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  return (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes;
}

export const hexBigInt = (hex: string): bigint => BigInt(`0x${hex}`);

/** The LST: HMAC-SHA1 keyed by the shared DH secret K over the decrypted access token secret. */
export function liveSessionToken(sharedSecret: bigint, accessTokenSecret: Buffer): string {
  return createHmac('sha1', bigIntBytes(sharedSecret)).update(accessTokenSecret).digest('base64');
}

/** What IBKR answers beside the DH response: hex(HMAC-SHA1(LST, consumer key)). */
export function liveSessionTokenSignature(token: string, consumerKey: string): string {
  return createHmac('sha1', Buffer.from(token, 'base64')).update(consumerKey, 'utf8').digest('hex');
}
