// /api/docs serves Scalar from the package under a policy that keeps scripts strict (no inline
// script, no eval, nothing from another origin); only this page allows inline styles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? '';

describe('/api/docs', () => {
  it('is a page whose scripts all come from this server, started without inline script', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map((m) => m[1]?.match(/src="([^"]+)"/)?.[1] ?? m[1]?.match(/type="([^"]+)"/)?.[1])).toEqual([
        'application/json',
        '/api/docs/setup.js',
        '/api/docs/js/scalar.js',
      ]);
      expect(scripts.every((m) => (m[2] ?? '').trim() === '')).toBe(true);
      expect(page.body).toContain('data-url="/api/openapi.json"');
      expect(page.body).not.toMatch(/https?:\/\//);

      const policy = String(page.headers['content-security-policy']);
      expect(directive(policy, 'script-src')).toMatch(/^script-src 'self'/);
      expect(policy).not.toContain('unsafe-eval');
      expect(directive(policy, 'script-src')).not.toContain('unsafe-inline');
      expect(directive(policy, 'style-src')).toBe("style-src 'self' 'unsafe-inline'");
      expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    }
  });

  it('serves the renderer and its setup as scripts', async () => {
    const bundle = await t.app.inject({ url: '/api/docs/js/scalar.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toContain('javascript');
    expect(bundle.body.length).toBeGreaterThan(100_000);
    const setup = await t.app.inject({ url: '/api/docs/setup.js' });
    expect(setup.body).toContain('jitless: true');
  });

  it('leaves every other page under the strict style policy', async () => {
    const other = await t.app.inject({ url: '/api/openapi.json' });
    expect(other.statusCode).toBe(200);
    expect(directive(String(other.headers['content-security-policy']), 'style-src')).not.toContain('unsafe-inline');
  });

  it('lets web tools of other origins read the OpenAPI document (public, no credentials)', async () => {
    const doc = await t.app.inject({ url: '/api/openapi.json', headers: { origin: 'https://editor.swagger.io' } });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['access-control-allow-origin']).toBe('*');
    expect(doc.headers['access-control-allow-credentials']).toBeUndefined();
    expect(doc.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // The API itself stays closed to other origins' scripts.
    const api = await t.app.inject({ url: '/api/v1/accounts', headers: { origin: 'https://editor.swagger.io' } });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });
});
