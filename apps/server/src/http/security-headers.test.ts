import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { helmetBuilds } from './helmet-once.ts';

let http: TestApp;
let https: TestApp;
beforeAll(async () => {
  [http, https] = await Promise.all([
    startTestApp(),
    startTestApp({ env: { PUBLIC_URL: 'https://router.example.com' } }),
  ]);
});
afterAll(() => Promise.all([http?.close(), https?.close()]));

function directives(csp: string | undefined): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

describe('security headers', () => {
  const answers = [
    { name: 'an API answer', method: 'GET' as const, url: '/healthz' },
    { name: 'GraphQL', method: 'POST' as const, url: '/graphql', payload: { query: '{ health }' } },
    { name: 'the hook', method: 'POST' as const, url: '/hook/AAAAAAAAAAAAAAAAAAAAAA', payload: {} },
    { name: 'a 404', method: 'GET' as const, url: '/api/nothing' },
  ];

  it.each(answers)('are on $name', async (request) => {
    const res = await http.app.inject(request);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    { name: 'GraphQL by POST', method: 'POST' as const, url: '/graphql', payload: { query: '{ health }' } },
    { name: 'GraphQL by GET', method: 'GET' as const, url: '/graphql?query=%7B%20health%20%7D' },
    { name: 'a refused GraphQL body', method: 'POST' as const, url: '/graphql', payload: {} },
    { name: 'the REST API, refused', method: 'GET' as const, url: '/api/v1/accounts' },
  ])('forbid any cache to keep $name (user data)', async (request) => {
    const res = await http.app.inject(request);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('allow no inline script or style, and only the third parties the app uses', async () => {
    const res = await http.app.inject({ method: 'GET', url: '/healthz' });
    const csp = directives(res.headers['content-security-policy'] as string);
    for (const [name, values] of csp) {
      expect(values, name).not.toContain("'unsafe-inline'");
      expect(values, name).not.toContain("'unsafe-eval'");
      expect(values, name).not.toContain('*');
      expect(values, name).not.toContain('https:');
    }
    expect(csp.get('script-src')).toEqual([
      "'self'",
      'https://accounts.google.com/gsi/client',
      'https://appleid.cdn-apple.com',
      'https://js.stripe.com',
      'https://*.js.stripe.com',
    ]);
    expect(csp.get('frame-src')).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com', 'https://m.stripe.network']),
    );
    expect(csp.get('connect-src')).toEqual(
      expect.arrayContaining(['https://api.stripe.com', 'https://m.stripe.network']),
    );
    expect(csp.get('style-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/style']);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it('add HSTS and upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    const res = await https.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(directives(res.headers['content-security-policy'] as string).has('upgrade-insecure-requests')).toBe(true);
  });

  it.each([
    ['http', () => http],
    ['https', () => https],
  ] as const)("on the hook (%s) are helmet's very headers, on refusals and errors too", async (_name, app) => {
    const ours = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(headers).filter(
          ([name]) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name),
        ),
      );
    const helmetSet = ours((await app().app.inject({ method: 'GET', url: '/api/nothing' })).headers);
    expect(Object.keys(helmetSet).length).toBeGreaterThan(8);
    const hook = await app().app.inject({ method: 'POST', url: '/hook/AAAAAAAAAAAAAAAAAAAAAA', payload: {} });
    const tooLarge = await app().app.inject({
      method: 'POST',
      url: '/hook/AAAAAAAAAAAAAAAAAAAAAA',
      headers: { 'content-type': 'text/plain' },
      payload: 'x'.repeat(70_000),
    });
    expect(tooLarge.statusCode).toBe(413);
    for (const res of [hook, tooLarge]) expect(ours(res.headers)).toEqual(helmetSet);
  });

  it.each([
    ['http', () => http],
    ['https', () => https],
  ] as const)(
    "are helmet's very headers on the router's own 400s (an undecodable path, a parameter too long) on %s",
    async (_name, app) => {
      const ours = (headers: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(headers).filter(
            ([name]) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name),
          ),
        );
      const helmetSet = ours((await app().app.inject({ method: 'GET', url: '/api/nothing' })).headers);
      expect(helmetSet['x-frame-options']).toBe('DENY');
      for (const url of ['/api/v1/orders/%E0%A4%A', `/api/v1/orders/${'x'.repeat(1200)}`, '/%zz']) {
        const res = await app().app.inject({ method: 'GET', url });
        expect(res.statusCode, url.slice(0, 30)).toBe(400);
        expect(res.json()).toEqual({ status: 'ValidationError', message: expect.any(String) });
        expect(ours(res.headers), url.slice(0, 30)).toEqual(helmetSet);
      }
    },
  );

  it('come from one helmet middleware per app, not one built per request', async () => {
    await http.app.inject({ method: 'GET', url: '/healthz' });
    const before = helmetBuilds();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => http.app.inject({ method: 'GET', url: '/healthz' })),
    );
    expect(answers.map((res) => res.headers['x-frame-options'])).toEqual(Array(5).fill('DENY'));
    const after = helmetBuilds();
    expect(after.built - before.built).toBe(0);
    expect(after.reused - before.reused).toBe(5);
  });
});
