// The connect form's values read into what a connection keeps. Two ways in (WIRE.md §1):
//   OAuth 1.0a: consumer key, access token, access token secret (RSA-encrypted, base64), the
//     private signature and encryption keys, the Diffie-Hellman prime (hex or a dhparam PEM);
//   the operator's Client Portal Gateway: consumer key "gateway" and the operator's passphrase
//     (IBKR_CLIENT_SECRET) as access token; the gateway holds the login, requests carry no auth.
import { constants, type KeyObject, privateDecrypt } from 'node:crypto';
import type { BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { GATEWAY_CONSUMER_KEY, IBKR_TITLE } from './descriptor.ts';
import { normalizePem, rsaPrivateKey, sameText } from './oauth-crypto.ts';

export interface OAuthCredentials {
  consumerKey: string;
  accessToken: string;
  accessTokenSecret: string;
  signatureKey: KeyObject;
  encryptionKey: KeyObject;
  dhPrime: bigint;
  dhGenerator: bigint;
}

export type Credentials = { mode: 'gateway' } | ({ mode: 'oauth' } & OAuthCredentials);

const refused = (message: string) => new BrokerError('AuthenticationError', IBKR_TITLE, message);

/** Reads one DER TLV at `offset`: its tag, the value's bounds. */
function derItem(der: Buffer, offset: number): { tag: number; start: number; end: number } {
  const tag = der[offset] ?? -1;
  let length = der[offset + 1] ?? 0;
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] ?? 0);
    start += count;
  }
  return { tag, start, end: start + length };
}

/** `-----BEGIN DH PARAMETERS-----`: SEQUENCE { INTEGER prime, INTEGER generator }. */
function dhParamsFromPem(pem: string): { prime: bigint; generator: bigint } | undefined {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const sequence = derItem(der, 0);
  const prime = derItem(der, sequence.start);
  const generator = derItem(der, prime.end);
  if (sequence.tag !== 0x30 || prime.tag !== 0x02 || generator.tag !== 0x02 || generator.end > der.length)
    return undefined;
  const integer = (item: { start: number; end: number }) =>
    BigInt(`0x${der.subarray(item.start, item.end).toString('hex') || '0'}`);
  return { prime: integer(prime), generator: integer(generator) };
}

export function dhParams(text: string): { prime: bigint; generator: bigint } | undefined {
  const pem = normalizePem(text);
  const params = pem?.includes('DH PARAMETERS') ? dhParamsFromPem(pem) : undefined;
  if (params) return params;
  const hex = text.trim().replace(/^0x/i, '').replace(/[\s:]/g, '');
  return /^[0-9a-f]{64,}$/i.test(hex) ? { prime: BigInt(`0x${hex}`), generator: 2n } : undefined;
}

/**
 * RSA PKCS#1 v1.5 decryption, unpadded by hand: Node refuses that padding for private
 * decryption (CVE-2023-46809, a timing oracle). No oracle here: the ciphertext and the key come
 * from the same connect form, and a wrong pair is answered the same way whatever failed.
 */
export function decryptAccessTokenSecret(secret: string, key: KeyObject): Buffer | undefined {
  try {
    const block = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, Buffer.from(secret, 'base64'));
    const separator = block.indexOf(0, 2);
    if (block[0] !== 0 || block[1] !== 2 || separator < 10) return undefined;
    return block.subarray(separator + 1);
  } catch {
    return undefined;
  }
}

/** OAuth credentials from text (the form's, or as sealed); else what cannot be read. */
function oauthCredentials(values: Record<string, string | undefined>): OAuthCredentials | string {
  const text = (name: string) => values[name]?.trim() ?? '';
  const consumerKey = text('consumerKey');
  const accessToken = text('accessToken');
  const accessTokenSecret = text('accessTokenSecret').replace(/\s+/g, '');
  if (!consumerKey || !accessToken) return 'consumer key and access token are required';
  const signatureKey = rsaPrivateKey(text('signaturePrivateKey'));
  if (!signatureKey) return 'the signature private key is not an unencrypted RSA key in PEM form';
  const encryptionKey = rsaPrivateKey(text('encryptionPrivateKey'));
  if (!encryptionKey) return 'the encryption private key is not an unencrypted RSA key in PEM form';
  const dh = dhParams(text('dhPrime'));
  if (!dh) return 'the Diffie-Hellman prime is neither hex nor a DH PARAMETERS PEM';
  if (!decryptAccessTokenSecret(accessTokenSecret, encryptionKey))
    return 'the access token secret does not decrypt with the encryption key';
  const dhGenerator = values.dhGenerator ? BigInt(`0x${values.dhGenerator}`) : dh.generator;
  return { consumerKey, accessToken, accessTokenSecret, signatureKey, encryptionKey, dhPrime: dh.prime, dhGenerator };
}

/** The form's values, checked; throws AuthenticationError naming what cannot be read. */
export function readCredentials(ctx: BrokerContext, values: Record<string, string>): Credentials {
  if (values.consumerKey?.trim().toLowerCase() === GATEWAY_CONSUMER_KEY) {
    // A gateway is one IBKR login: only those the operator gives the passphrase may trade it.
    if (!ctx.clientSecret) throw refused('this server has no Client Portal Gateway passphrase (IBKR_CLIENT_SECRET)');
    if (!sameText(values.accessToken?.trim() ?? '', ctx.clientSecret)) throw refused('wrong gateway passphrase');
    return { mode: 'gateway' };
  }
  const credentials = oauthCredentials(values);
  if (typeof credentials === 'string') throw refused(credentials);
  return { mode: 'oauth', ...credentials };
}

const pemOf = (key: KeyObject) => String(key.export({ type: 'pkcs8', format: 'pem' }));

/** What the server seals for the connection (the live session token is added by the session). */
export function credentialSecrets(credentials: Credentials): BrokerSecrets {
  if (credentials.mode === 'gateway') return { mode: 'gateway' };
  return {
    mode: 'oauth',
    consumerKey: credentials.consumerKey,
    accessToken: credentials.accessToken,
    accessTokenSecret: credentials.accessTokenSecret,
    signaturePrivateKey: pemOf(credentials.signatureKey),
    encryptionPrivateKey: pemOf(credentials.encryptionKey),
    dhPrime: credentials.dhPrime.toString(16),
    dhGenerator: credentials.dhGenerator.toString(16),
  };
}

/** The credentials back from sealed secrets; a connection that lost them must connect again. */
export function credentialsOf(secrets: BrokerSecrets): Credentials {
  if (secrets.mode === 'gateway') return { mode: 'gateway' };
  const credentials = secrets.mode === 'oauth' ? oauthCredentials(secrets) : 'the connection has no credentials';
  if (typeof credentials === 'string') throw refused(`${credentials}; connect again`);
  return { mode: 'oauth', ...credentials };
}
