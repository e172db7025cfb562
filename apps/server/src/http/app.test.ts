import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedSymbol, type Provider, parseSymbol } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { UNAVAILABLE_RETRY_AFTER_S } from '../errors.ts';
import { authenticate } from '../modules/auth/authenticate.ts';
import { buildApp } from './app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('HTTP skeleton', () => {
  it('GET /healthz answers while the process lives', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
  });

  it('answers unknown routes with the SPEC §8 error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'Error', message: 'Not found: GET /api/nothing' });
  });

  it('serves GraphQL by POST and by GET', async () => {
    const post = await t.app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ health }' } });
    expect(post.json()).toEqual({ data: { health: 'ok' } });
    const get = await t.app.inject({ method: 'GET', url: '/graphql?query=%7B%20health%20%7D' });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({ data: { health: 'ok' } });
  });

  it('lists the working providers as a JSON string', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ providers }' } });
    const providers = JSON.parse(res.json().data.providers) as Array<{ name: string; title: string }>;
    expect(providers.map((p) => p.name)).toContain('paper');
    const one = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: 'query($n: String!) { provider(name: $n) }', variables: { n: 'paper' } },
    });
    expect(JSON.parse(one.json().data.provider).title).toBe('Paper Trading');
  });

  it('serves the providers’ dated examples as of today: no option or contract month that has expired', async () => {
    const today = Date.UTC(2031, 0, 10);
    vi.useFakeTimers({ toFake: ['Date'], now: today });
    let providers: Provider[];
    try {
      const res = await t.app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ providers }' } });
      providers = JSON.parse(res.json().data.providers) as Provider[];
    } finally {
      vi.useRealTimers();
    }
    const expired: string[] = [];
    let dated = 0;
    for (const provider of providers) {
      for (const example of provider.reference.symbol?.examples ?? []) {
        let parts: ParsedSymbol['parts'];
        try {
          parts = parseSymbol(String(example), { now: () => today }).parts;
        } catch {
          continue;
        }
        const lastDay =
          parts.kind === 'option'
            ? Date.parse(parts.expiry)
            : parts.kind === 'future'
              ? Date.UTC(parts.year, parts.month, 0)
              : undefined;
        if (lastDay === undefined) continue;
        dated += 1;
        if (lastDay < today) expired.push(`${provider.name}: ${example}`);
      }
    }
    expect(dated).toBeGreaterThan(0);
    expect(expired).toEqual([]);
  });

  it('limits query depth and aliases (graphql-armor)', async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: health`).join(' ');
    const res = await t.app.inject({ method: 'POST', url: '/graphql', payload: { query: `{ ${aliases} }` } });
    expect(res.json().errors?.[0]?.message).toMatch(/alias/i);
  });

  it('refuses malformed JSON with a ValidationError, never a stack trace', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: '{"query": ',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  it.each([
    ['true', ''],
    ['2', ', 192.0.2.1'],
  ])(
    'with TRUST_PROXY=%s takes the address the farthest proxy saw, not one the client wrote',
    async (trust, nearer) => {
      const proxied = await startTestApp({ env: { TRUST_PROXY: trust } });
      try {
        const signin = (forwardedFor: string) =>
          proxied.app.inject({
            method: 'POST',
            url: '/graphql',
            headers: { 'x-forwarded-for': forwardedFor },
            payload: {
              query: 'mutation($c: JSON!) { signin(type: "password", credentials: $c) { token } }',
              variables: { c: { email: 'guessed@example.test', password: 'Not-The-Password-1!' } },
            },
          });
        // The same client (203.0.113.7, appended by the farthest proxy; a nearer one may append its own) with a new made-up address each time.
        const extensions: Array<{ code?: string; retryAfter?: number } | undefined> = [];
        for (let i = 0; i < 11; i++)
          extensions.push((await signin(`198.51.100.${i}, 203.0.113.7${nearer}`)).json().errors?.[0]?.extensions);
        const codes = extensions.map((e) => e?.code);
        expect(codes.slice(0, 10)).toEqual(Array(10).fill('BAD_USER_INPUT'));
        expect(codes[10]).toBe('RATE_LIMITED');
        // When to try again: within the limit's minute, in whole seconds.
        expect(extensions[10]?.retryAfter).toSatisfy((s: number) => Number.isInteger(s) && s >= 1 && s <= 120);
        // Another client behind the same proxy has its own limit.
        const other = await signin(`198.51.100.1, 203.0.113.8${nearer}`);
        expect(other.json().errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      } finally {
        await proxied.close();
      }
    },
  );
});

describe('while shutting down', () => {
  it('answers a request on a kept-alive connection 503 with {status, message} and the security headers', async () => {
    // An instance held in its closing phase by a preClose hook (its own services: closing ends their brokers).
    const own = await startTestApp();
    const app = await buildApp(own.services, { authenticate, webApp: false });
    let enteredClose: () => void = () => {};
    const closingStarted = new Promise<void>((resolve) => {
      enteredClose = resolve;
    });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.addHook('preClose', async () => {
      enteredClose();
      await held;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent }, (res) => {
            let body = '';
            res.on('data', (chunk) => {
              body += String(chunk);
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          })
          .on('error', reject);
      });
    try {
      expect((await get('/healthz')).status).toBe(200);
      const closed = app.close();
      await closingStarted;
      for (const path of ['/api/v1/accounts', '/healthz']) {
        const answer = await get(path);
        expect(answer.status, path).toBe(503);
        expect(JSON.parse(answer.body), path).toEqual({
          status: 'Error',
          message: 'The server is shutting down, please try again',
        });
        expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
        expect(
          answer.headers['strict-transport-security'] ?? answer.headers['cross-origin-resource-policy'],
          path,
        ).toBeTruthy();
      }
      // /graphql answers a GraphQL error, with when to retry.
      const graphql = await get('/graphql?query=%7Buser%7Bemail%7D%7D');
      expect({ status: graphql.status, body: JSON.parse(graphql.body) }).toEqual({
        status: 503,
        body: {
          errors: [
            {
              message: 'The server is shutting down, please try again',
              extensions: { code: 'SERVICE_UNAVAILABLE', status: 'Error', retryAfter: UNAVAILABLE_RETRY_AFTER_S },
            },
          ],
        },
      });
      release();
      await closed;
    } finally {
      release();
      agent.destroy();
      await app.close();
      await own.close();
    }
  });
});
