import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { IMMUTABLE } from './web-app.ts';

// A built web app as the precompress plugin leaves it: each file with a .br and a .gz beside it.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'router-web-dist-'));
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<div></div>'.repeat(50)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('signal router '.repeat(100))});`;

function write(file: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  fs.writeFileSync(path.join(dist, file), content);
  fs.writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(content));
  fs.writeFileSync(path.join(dist, `${file}.gz`), gzipSync(content));
}

let t: TestApp;
beforeAll(async () => {
  write('index.html', INDEX);
  write('assets/index-AbC123.js', SCRIPT);
  write('favicon.svg', `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`);
  t = await startTestApp({ webDist: dist });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the web app', () => {
  it('sends hashed assets precompressed, cached for a year', async () => {
    const br = await t.app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    // A script needs no page policies; nosniff and CORP stay.
    expect(br.headers['content-security-policy']).toBeUndefined();
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.headers['cross-origin-resource-policy']).toBe('same-origin');

    const gz = await t.app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it.each(['/', '/signin', '/me/connector'])('answers %s with the HTML, revalidated every time', async (url) => {
    const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it('does not cache unhashed files for long, nor offer the compressed copies by name', async () => {
    const icon = await t.app.inject({ url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/assets/index-AbC123.js.br' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/assets/missing-123.js' })).statusCode).toBe(404);
  });

  it('keeps the broker callback in the popup that opened it (no opener policy)', async () => {
    const res = await t.app.inject({ url: '/callback/schwab?code=x' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
  });
});
