// The hook endpoint as an encapsulated Fastify plugin: its own body parsing (every content type
// read as text, at most 64 KiB; TradingView sends text/plain, others JSON with or without a
// charset), its own error handler (SPEC §8 bodies, never a 5xx for what the sender did), no
// GraphQL or web handlers on its path. GET /api/internal/hook-timings only with HOOK_TIMINGS.
import type { FastifyError, FastifyInstance } from 'fastify';
import { TOO_LARGE, UNAVAILABLE } from '../modules/signals/answers.ts';
import type { Services } from '../services.ts';
import { handleSignal } from './handle-signal.ts';
import { createHookRuntime, type HookRuntime } from './runtime.ts';

export const HOOK_BODY_LIMIT = 65_536;

declare module 'fastify' {
  interface FastifyInstance {
    /** The hook endpoint's in-process state (cache, limiters, writer, reconciler). */
    hookRuntime: HookRuntime;
  }
}

export async function registerHook(app: FastifyInstance, services: Services): Promise<void> {
  const runtime = createHookRuntime(app, services);
  app.decorate('hookRuntime', runtime);
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('*', { parseAs: 'string', bodyLimit: HOOK_BODY_LIMIT }, (_req, body, done) => {
      done(null, body);
    });
    hook.setErrorHandler((error: FastifyError, req, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
        return reply.status(TOO_LARGE.statusCode).send(TOO_LARGE.body);
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return reply.status(400).send({ status: 'ValidationError', message: `body: ${error.message}` });
      }
      req.log.error({ err: error }, 'hook request failed');
      return reply.status(UNAVAILABLE.statusCode).send(UNAVAILABLE.body);
    });
    hook.post<{ Params: { shortKey: string } }>(
      '/hook/:shortKey',
      { bodyLimit: HOOK_BODY_LIMIT },
      async (req, reply) => {
        const startedAt = performance.now();
        const hrStart = process.hrtime.bigint();
        const signal = {
          shortKey: req.params.shortKey,
          body: typeof req.body === 'string' ? req.body : undefined,
          address: req.ip,
          startedAt,
          hrStart,
          waitedUs: 0,
        };
        const answer = await handleSignal(runtime, signal);
        const answerStart = process.hrtime.bigint();
        reply.status(answer.statusCode).send(answer.body);
        services.counters.hookAnswer(answer.statusCode);
        const end = process.hrtime.bigint();
        runtime.timings.record('answer', answerStart, end);
        runtime.timings.recordUs('own', Math.max(0, Number(end - hrStart) / 1000 - signal.waitedUs));
        return reply;
      },
    );
  });
  if (services.config.HOOK_TIMINGS) {
    app.get('/api/internal/hook-timings', async (req) => {
      const summary = runtime.timings.summary();
      if ((req.query as { reset?: string }).reset === '1') runtime.timings.reset();
      return summary;
    });
  }
}
