// The provider's URLs are PUBLIC_URL's: neither the Host header nor, behind a trusted proxy,
// X-Forwarded-Host may steer them (a cached discovery document naming another host would send
// applications' secrets and codes there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';

const PUBLIC_URL = 'https://router.example.test';

describe.each(['true', 'false'])('the provider with TRUST_PROXY=%s', (trust) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: trust, PUBLIC_URL } });
  });
  afterAll(() => t.close());

  it('names only PUBLIC_URL in its discovery document, whatever host the request names', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(res.statusCode).toBe(200);
    const metadata = res.json() as Record<string, unknown>;
    expect(metadata.issuer).toBe(`${PUBLIC_URL}/oidc`);
    const urls = Object.entries(metadata).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && /^[a-z]+:\/\//.test(entry[1]),
    );
    expect(urls.map(([name]) => name)).toEqual(expect.arrayContaining(['token_endpoint', 'jwks_uri']));
    for (const [name, url] of urls) expect(url, name).toMatch(/^https:\/\/router\.example\.test\/oidc(\/|$)/);
    expect(res.body).not.toContain('evil.example');
  });
});
