import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';

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
