import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { DatabaseError } from 'pg-protocol';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { censorSecrets, loggerOptions, maskUrl, withoutQueryValues } from './logger.ts';

/** A stream keeping every log line written to it. */
function lineSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

describe('logger', () => {
  it('masks hook keys and tokens in URLs', () => {
    expect(maskUrl('/hook/AbCdEfGhIjKlMnOpQrStUv?x=1')).toBe('/hook/***?x=1');
    expect(maskUrl('/auth/email?token=secret&a=b')).toBe('/auth/email?token=***&a=b');
    expect(maskUrl('/cb?code=c0de&state=s&client_secret=x&id_token_hint=y')).toBe(
      '/cb?code=***&state=s&client_secret=***&id_token_hint=***',
    );
  });

  it("masks the broker callbacks' credentials (Kite's request_token, E*TRADE's verifier and token)", () => {
    expect(maskUrl('/callback/zerodha?action=login&type=login&status=success&request_token=rt1&state=s')).toBe(
      '/callback/zerodha?action=login&type=login&status=success&request_token=***&state=s',
    );
    expect(maskUrl('/callback/etrade?oauth_token=ot1&oauth_verifier=V42')).toBe(
      '/callback/etrade?oauth_token=***&oauth_verifier=***',
    );
  });

  it('redacts secrets in logged objects', () => {
    const { lines, sink } = lineSink();
    const log = pino(loggerOptions('info'), sink);
    log.info({ input: { password: 'hunter2', token: 'tok', email: 'a@b.c' } }, 'signin');
    log.info({ body: { access_token: 'at-secret', refresh_token: 'rt-secret', client_secret: 'cs-secret' } }, 'oauth');
    expect(lines.join('')).not.toContain('hunter2');
    expect(lines.join('')).not.toContain('"tok"');
    expect(lines.join('')).not.toMatch(/at-secret|rt-secret|cs-secret/);
    expect(lines.join('')).toContain('a@b.c');
  });

  it('censors secret keys at the top and one level down, leaving the logged objects as they were', () => {
    const input = { email: 'a@b.c', password: 'hunter2', nested: { deeper: { token: 'kept-at-depth-2' } } };
    const error = Object.assign(new Error('broker said no'), { token: 'err-secret' });
    const line = { token: 'top', input, err: error, list: [{ password: 'in-array' }], n: 1 };
    const out = censorSecrets(line);
    expect(out.token).toBe('[redacted]');
    expect(out.input).toEqual({ email: 'a@b.c', password: '[redacted]', nested: input.nested });
    const err = out.err as Error & { token: string };
    expect(err).toBeInstanceOf(Error);
    expect([err.message, err.token, err.stack === error.stack]).toEqual(['broker said no', '[redacted]', true]);
    expect(out.n).toBe(1);
    // Nothing logged is changed in place.
    expect([line.token, input.password, error.token]).toEqual(['top', 'hunter2', 'err-secret']);
    const clean = { a: 1, b: { c: 2 } };
    expect(censorSecrets(clean)).toBe(clean);
  });

  it('keeps secrets out of lines of child loggers, and their bindings as given', () => {
    const { lines, sink } = lineSink();
    const log = pino(loggerOptions('info'), sink).child({ reqId: 'r-1' }, {});
    log.warn({ body: { clientSecret: 'cs-1', shortKey: 'hook-key-1' }, secret: 'top-1' }, 'refused');
    log.error({ req: { method: 'GET', url: '/hook/AbCdEf', id: 'x', headers: { authorization: 'Bearer t-1' } } }, 'x');
    const text = lines.join('');
    expect(text).not.toMatch(/cs-1|hook-key-1|top-1|t-1|AbCdEf/);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ reqId: 'r-1', msg: 'refused' });
  });

  it("logs a failed query's SQL and error code, never its values or the failing row", () => {
    const cause = Object.assign(
      new DatabaseError('null value in column "is_enabled" violates not-null constraint', 1, 'error'),
      {
        code: '23502',
        table: 'notifications',
        detail: 'Failing row contains (2, whsec-cipher-1, null).',
      },
    );
    const error = new DrizzleQueryError('select * from hooks where short_key = $1', ['hook-key-2', 'whsec-2'], cause);
    const { lines, sink } = lineSink();
    pino(loggerOptions('info'), sink).error({ err: error }, 'round failed');
    const text = lines.join('');
    expect(text).not.toMatch(/hook-key-2|whsec-2|whsec-cipher-1/);
    const logged = JSON.parse(lines[0] ?? '{}').err;
    expect(logged.message).toContain('Failed query: select * from hooks where short_key = $1\nparams: [redacted]');
    expect(logged.message).toContain('violates not-null constraint');
    expect(logged.stack).toContain('params: [redacted]');
    // The error itself is left as it was, for whoever handles it.
    expect([error.params, cause.detail]).toEqual([
      ['hook-key-2', 'whsec-2'],
      'Failing row contains (2, whsec-cipher-1, null).',
    ]);
    const plain = new Error('broker said no');
    expect(withoutQueryValues(plain)).toBe(plain);
  });
});
