// A local JWKS endpoint with keys made by jose, signing ID tokens like Google's and Apple's.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export interface LocalJwks {
  url: string;
  /** Signs an ID token with the served key (or `foreign`, a key not in the set). */
  sign(payload: JWTPayload, options?: { foreign?: boolean; expiresIn?: string | number }): Promise<string>;
  close(): Promise<void>;
}

/**
 * A browser's sign-in nonce: `value` is what it keeps and sends with the token, `claim` what it
 * gives Google or Apple (SHA-256, hex), which the ID token carries as its nonce.
 */
export function browserNonce(): { value: string; claim: string } {
  const value = randomBytes(24).toString('base64url');
  return { value, claim: createHash('sha256').update(value).digest('hex') };
}

export async function startLocalJwks(): Promise<LocalJwks> {
  const served = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(served.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/keys`,
    sign: (payload, options = {}) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuedAt()
        .setSubject(String(payload.sub ?? 'subject-1'))
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(options.foreign ? foreign.privateKey : served.privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
