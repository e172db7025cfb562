// The docs' signing example reproduced byte for byte (broker-specs/robinhood/fixtures/
// signature-vector.json), the fake's check of it, and our client order id as a UUID.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { robinhoodClientOrderId, SIGNAL_ID_NAMESPACE, uuidV5 } from './client-order-id.ts';
import { messageToSign, privateKeyFrom, publicKeyBytes, signedHeaders, verifySignature } from './signing.ts';

const vector = JSON.parse(readFileSync(brokerSpecsPath('robinhood', 'fixtures', 'signature-vector.json'), 'utf8')) as {
  private_key_seed_base64: string;
  public_key_base64: string;
  api_key: string;
  timestamp: number;
  method: string;
  path: string;
  body: string;
  expected_headers: Record<string, string>;
};
const request = {
  apiKey: vector.api_key,
  timestamp: vector.timestamp,
  path: vector.path,
  method: vector.method,
  body: vector.body,
};

describe('Ed25519 request signing', () => {
  it('reproduces the docs example exactly', () => {
    const key = privateKeyFrom(vector.private_key_seed_base64);
    if (!key) throw new Error('the docs seed must load');
    expect(publicKeyBytes(key).toString('base64')).toBe(vector.public_key_base64);
    expect(messageToSign(request)).toBe(`${vector.api_key}${vector.timestamp}${vector.path}POST${vector.body}`);
    expect(signedHeaders(request, key)).toEqual(vector.expected_headers);
  });

  it('verifies the docs signature and refuses any change to what was signed', () => {
    const signature = vector.expected_headers['x-signature'] ?? '';
    expect(verifySignature(request, vector.public_key_base64, signature)).toBe(true);
    for (const changed of [
      { ...request, body: vector.body.replace('0.1', '0.2') },
      { ...request, path: `${vector.path}?account_number=1` },
      { ...request, timestamp: vector.timestamp + 1 },
      { ...request, method: 'GET' },
    ]) {
      expect(verifySignature(changed, vector.public_key_base64, signature)).toBe(false);
    }
  });

  it('takes the 32-byte seed or a 64-byte NaCl secret key, and nothing else', () => {
    const seed = Buffer.from(vector.private_key_seed_base64, 'base64');
    const nacl = Buffer.concat([seed, Buffer.from(vector.public_key_base64, 'base64')]).toString('base64');
    const key = privateKeyFrom(nacl);
    expect(key && signedHeaders(request, key)).toEqual(vector.expected_headers);
    const wrongPublic = Buffer.concat([seed, Buffer.alloc(32)]).toString('base64');
    for (const bad of ['', 'not base64!', Buffer.alloc(16).toString('base64'), wrongPublic])
      expect(privateKeyFrom(bad)).toBeUndefined();
  });
});

describe('client_order_id', () => {
  it('is a UUID v5 of the signal id (RFC 9562 example), the same every time', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
    const id = robinhoodClientOrderId('sig-req-1');
    expect(id).toBe(uuidV5(SIGNAL_ID_NAMESPACE, 'sig-req-1'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(robinhoodClientOrderId('sig-req-2')).not.toBe(id);
  });

  it('keeps a signal id that already is a UUID', () => {
    expect(robinhoodClientOrderId('131DE903-5A9C-4260-ABC1-28D562A5DCF0')).toBe('131de903-5a9c-4260-abc1-28d562a5dcf0');
  });
});
