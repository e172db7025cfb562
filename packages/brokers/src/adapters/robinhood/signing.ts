// Robinhood's request signature (WIRE.md §1): Ed25519 over
//   api_key + timestamp + path (with the query, as sent) + METHOD + body (as sent, '' when none),
// base64 in `x-signature`, with `x-api-key` and `x-timestamp` (unix seconds). Node's crypto does
// Ed25519; the private key is the 32-byte seed in base64 (a 64-byte NaCl secret key, seed then
// public key, is accepted too).
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SPKI DER header of an Ed25519 public key; the 32-byte key follows it. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface SignedRequest {
  apiKey: string;
  /** Unix seconds. */
  timestamp: number;
  /** Path and query exactly as sent: /api/v2/crypto/trading/orders/?account_number=1 */
  path: string;
  method: string;
  /** The body exactly as sent; '' for none. */
  body: string;
}

export function messageToSign(request: SignedRequest): string {
  return `${request.apiKey}${request.timestamp}${request.path}${request.method.toUpperCase()}${request.body}`;
}

/** The private key from its base64 text; undefined when it is not an Ed25519 seed. */
export function privateKeyFrom(base64: string): KeyObject | undefined {
  const text = base64.trim();
  if (!/^[A-Za-z0-9+/=_-]+$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 32 && bytes.length !== 64) return undefined;
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, bytes.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  // A NaCl secret key carries its public key: it must be the seed's.
  if (bytes.length === 64 && !publicKeyBytes(key).equals(bytes.subarray(32))) return undefined;
  return key;
}

/** The raw 32-byte public key of a private key (what Robinhood is given). */
export function publicKeyBytes(key: KeyObject): Buffer {
  return createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519_PREFIX.length);
}

export function signatureOf(request: SignedRequest, key: KeyObject): string {
  return sign(null, Buffer.from(messageToSign(request), 'utf8'), key).toString('base64');
}

/** The three headers of a signed request. */
export function signedHeaders(request: SignedRequest, key: KeyObject): Record<string, string> {
  return {
    'x-api-key': request.apiKey,
    'x-timestamp': String(request.timestamp),
    'x-signature': signatureOf(request, key),
  };
}

/** The fake's check: the signature over the request, by the raw 32-byte public key in base64. */
export function verifySignature(request: SignedRequest, publicKeyBase64: string, signature: string): boolean {
  const raw = Buffer.from(publicKeyBase64, 'base64');
  if (raw.length !== 32) return false;
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' });
  const bytes = Buffer.from(signature, 'base64');
  return bytes.length === 64 && verify(null, Buffer.from(messageToSign(request), 'utf8'), key, bytes);
}
