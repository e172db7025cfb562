// The hook endpoint as an encapsulated Fastify plugin, transport only: its own body parsing
// (every content type read as text, at most 64 KiB; TradingView sends text/plain, others JSON
// with or without a charset), its own error handler (SPEC §8 bodies, never a 5xx for what the
// sender did), rate limits, no GraphQL or web handlers on its path. The signal itself goes to
// modules/signals. Any other method (a browser's GET) is told the URL takes POST. GET
// /api/internal/hook-timings only with HOOK_TIMINGS.
import { MAX_BODY_LENGTH } from '@router/orders';
import type { FastifyError, FastifyInstance } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_S } from '../errors.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { POST_ONLY, type SignalRuntime, TOO_LARGE, UNAVAILABLE } from '../modules/signals/index.ts';
import type { Services } from '../services.ts';
import { RateLimiter } from './rate-limit.ts';
import { receiveSignal, tellTooLarge } from './receive.ts';

const HOOK_PATHS = ['/hook/:shortKey', '/hook/:shortKey/'];

export async function registerHook(app: FastifyInstance, services: Services, signals: SignalRuntime): Promise<void> {
  const { config } = services;
  const { timings } = signals;
  const transport = {
    signals,
    byHook: new RateLimiter<number>(config.HOOK_RATE_PER_HOOK, { now: services.identity.now }),
    byAddress: new RateLimiter<string>(config.HOOK_RATE_PER_ADDRESS, { now: services.identity.now }),
  };
  // Helmet's headers, made once and set by the route itself (helmet: false below), before the body
  // is read, so refusals and errors carry them too.
  const headers = securityHeaders(config.PUBLIC_URL);
  await app.register(async (hook) => {
    hook.addHook('onRequest', (req, reply, done) => {
      for (const [name, value] of headers) reply.header(name, value);
      // Every body is read as text, so the type it claims does not matter: one Fastify cannot
      // parse (blank, 'json', a list) would be refused 415 before the body is read, the alert lost.
      if (req.headers['content-type'] !== undefined) req.headers['content-type'] = 'text/plain';
      done();
    });
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_LENGTH }, (_req, body, done) => {
      done(null, body);
    });
    hook.setErrorHandler((error: FastifyError, req, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
        reply.status(TOO_LARGE.statusCode).send(TOO_LARGE.body);
        void tellTooLarge(transport, ((req.params as { shortKey?: string }).shortKey ?? '').trim(), req.ip);
        return reply;
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return reply.status(400).send({ status: 'ValidationError', message: `body: ${error.message}` });
      }
      req.log.error({ err: error }, 'hook request failed');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
      return reply.status(UNAVAILABLE.statusCode).send(UNAVAILABLE.body);
    });
    // The URL as copied, and with a slash a sender added at its end: the same webhook.
    for (const url of HOOK_PATHS) {
      hook.post<{ Params: { shortKey: string } }>(
        url,
        { bodyLimit: MAX_BODY_LENGTH, helmet: false },
        async (req, reply) => {
          const receivedAt = performance.now();
          const hrStart = process.hrtime.bigint();
          const { answer, waitedUs, retryAfterS } = await receiveSignal(transport, {
            // Whitespace pasted with the URL (a space, a line end: %20, %0A) is not part of a key (base62).
            shortKey: req.params.shortKey.trim(),
            body: typeof req.body === 'string' ? req.body : undefined,
            address: req.ip,
            receivedAt,
            hrStart,
          });
          const answerStart = timings.enabled ? process.hrtime.bigint() : 0n;
          // Every 503 (database out of reach, shutting down, overloaded) says when to retry, as the API's do.
          const retryAfter = retryAfterS ?? (answer.statusCode === 503 ? UNAVAILABLE_RETRY_AFTER_S : undefined);
          if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
          reply.status(answer.statusCode).send(answer.body);
          services.counters.hookAnswer(answer.statusCode);
          if (timings.enabled) {
            const end = process.hrtime.bigint();
            timings.record('answer', answerStart, end);
            timings.recordUs('own', Math.max(0, Number(end - hrStart) / 1000 - waitedUs));
          }
          return reply;
        },
      );
      // Any other method (mostly a browser opening the URL to check it): 405 with Allow, how the
      // URL is used, not a 'Not found' (the web app's); no lookup, so nothing said of the key.
      hook.route({
        method: ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url,
        helmet: false,
        handler: async (_req, reply) => reply.status(POST_ONLY.statusCode).header('allow', 'POST').send(POST_ONLY.body),
      });
    }
  });
  if (config.HOOK_TIMINGS) {
    app.get('/api/internal/hook-timings', async (req) => {
      const summary = timings.summary();
      if ((req.query as { reset?: string }).reset === '1') timings.reset();
      return summary;
    });
  }
}
