// Webull's signature against the vectors computed with Webull's own SDK composer
// (broker-specs/webull/fixtures/signature-vectors.json): SHA1 + MD5 on api.webull.com, SHA256 on
// other hosts, a GET with query parameters. Each must come out byte for byte.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { algorithmFor, bodyDigest, type SignatureAlgorithm, signature, stringToSign } from './signer.ts';

interface Vector {
  host: string;
  method: string;
  uri: string;
  query: Record<string, string>;
  raw_body: string | null;
  body_digest: string | null;
  string_to_sign_encoded: string;
  headers: Record<string, string>;
}

const { vectors } = JSON.parse(
  readFileSync(brokerSpecsPath('webull', 'fixtures', 'signature-vectors.json'), 'utf8'),
) as {
  vectors: Vector[];
};

describe('Webull signature vectors', () => {
  it('has the three vectors', () => expect(vectors).toHaveLength(3));

  it.each(vectors.map((vector) => [`${vector.method} ${vector.host}${vector.uri}`, vector] as const))(
    '%s',
    (_name, vector) => {
      const headers = vector.headers;
      const algorithm = headers['x-signature-algorithm'] as SignatureAlgorithm;
      expect(algorithmFor(vector.host)).toBe(algorithm);
      const input = {
        algorithm,
        host: vector.host,
        path: vector.uri,
        query: vector.query,
        body: vector.raw_body ?? undefined,
        appKey: headers['x-app-key'] ?? '',
        appSecret: 'demo_app_secret',
        timestamp: headers['x-timestamp'] ?? '',
        nonce: headers['x-signature-nonce'] ?? '',
      };
      if (vector.raw_body !== null) expect(bodyDigest(algorithm, vector.raw_body)).toBe(vector.body_digest);
      expect(stringToSign(input)).toBe(vector.string_to_sign_encoded);
      expect(signature(input)).toBe(headers['x-signature']);
    },
  );
});
