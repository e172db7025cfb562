import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, maskUrl } from './logger.ts';

describe('logger', () => {
  it('masks hook keys and tokens in URLs', () => {
    expect(maskUrl('/hook/AbCdEfGhIjKlMnOpQrStUv?x=1')).toBe('/hook/***?x=1');
    expect(maskUrl('/auth/email?token=secret&a=b')).toBe('/auth/email?token=***&a=b');
    expect(maskUrl('/cb?code=c0de&state=s&client_secret=x&id_token_hint=y')).toBe(
      '/cb?code=***&state=s&client_secret=***&id_token_hint=***',
    );
  });

  it('redacts secrets in logged objects', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions('info'), sink);
    log.info({ input: { password: 'hunter2', token: 'tok', email: 'a@b.c' } }, 'signin');
    log.info({ body: { access_token: 'at-secret', refresh_token: 'rt-secret', client_secret: 'cs-secret' } }, 'oauth');
    expect(lines.join('')).not.toContain('hunter2');
    expect(lines.join('')).not.toContain('"tok"');
    expect(lines.join('')).not.toMatch(/at-secret|rt-secret|cs-secret/);
    expect(lines.join('')).toContain('a@b.c');
  });
});
