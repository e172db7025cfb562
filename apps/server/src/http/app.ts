// Builds the Fastify app: security headers, logging, errors, health, GraphQL, the hook, the Stripe
// webhook, OAuth, the REST API and the web app.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { AppError } from '../errors.ts';
import type { Authenticate } from '../graphql/yoga.ts';
import { registerGraphQL } from '../graphql/yoga.ts';
import { registerHook } from '../hook/plugin.ts';
import type { WorkerOptions } from '../modules/notifications/worker.ts';
import { registerNotificationWorker } from '../modules/notifications/worker-plugin.ts';
import { createSignalRuntime, type SignalRuntime } from '../modules/signals/index.ts';
import type { Services } from '../services.ts';
import { registerApi } from './api/index.ts';
import { frameworkError, registerErrorHandler } from './error-handler.ts';
import { registerHealth } from './health.ts';
import { registerMetrics } from './metrics.ts';
import { registerOAuth } from './oauth.ts';
import { registerSecurityHeaders, securityHeaders } from './security-headers.ts';
import { registerStripeWebhook } from './stripe-webhook.ts';
import { registerWebApp } from './web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signal path's in-process state (hook cache, writers, reconciler), for every way in. */
    signalRuntime: SignalRuntime;
  }
}

export interface AppOptions {
  authenticate: Authenticate;
  /** Serve the built web app (off in most integration tests). */
  webApp?: boolean;
  webDist?: string;
  /** Notification worker options (tests: short timeouts, a resolver). */
  notifications?: WorkerOptions;
}

export async function buildApp(services: Services, options: AppOptions): Promise<FastifyInstance> {
  const trustedHops = services.config.TRUST_PROXY;
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    // As many hops as TRUST_PROXY names proxies: the address the farthest proxy appended to
    // X-Forwarded-For. Trusting every hop took the first entry, which the client writes itself: a
    // new made-up address per request escaped every per-address limit (sign-in, reset requests,
    // sign-up, hooks). A function, since Fastify 5's hop count trusts one hop fewer than it says.
    trustProxy: trustedHops > 0 ? (_address: string, hop: number) => hop < trustedHops : false,
    bodyLimit: 1024 * 1024,
    // Fastify answers 414 past 100 characters in a path parameter; an /api/v1 account id (base64url
    // of the connection key and the broker's account id) is longer for a Schwab account hash, and
    // past 200 characters the route's own schema answers its documented 400.
    routerOptions: { maxParamLength: 1000 },
    // A path the router cannot take (a broken %-escape, a parameter past that length) answers
    // SPEC §8's {status, message} (400), as every other error, not Fastify's own shape, with
    // helmet's headers (its hook does not run for these).
    frameworkErrors: frameworkError(securityHeaders(services.config.PUBLIC_URL)),
    logController: new LogController({
      disableRequestLogging: services.config.LOG_LEVEL !== 'debug' && services.config.LOG_LEVEL !== 'trace',
    }),
    forceCloseConnections: false,
    // Fastify's own 503 while closing is written raw (its `{error, statusCode}` shape, no hook, no
    // helmet header): ours answers below, after helmet's hook, through the error handler.
    return503OnClosing: false,
  });
  await registerSecurityHeaders(app, services.config.PUBLIC_URL);
  registerErrorHandler(app);
  registerClosing(app);
  registerHealth(app, services);
  registerGraphQL(app, services, options.authenticate);
  const signals = createSignalRuntime(services);
  app.decorate('signalRuntime', signals);
  app.addHook('onReady', () => signals.start());
  // One hook, in this order: the broker calls in flight finish and their outcomes are stored, then
  // what brokers keep between calls ends (Rithmic's sessions log out). Fastify runs onClose hooks
  // last-added first, so a hook of its own added after this one closed them under those calls.
  app.addHook('onClose', async () => {
    await signals.stop();
    await Promise.allSettled(services.brokers.loaded().map(async (broker) => broker.close?.()));
  });
  // Work a request left running after its answer (a password reset's mail): done before the pool
  // closes (server.ts), which the server's own onClose (run first) does after the last request.
  app.addHook('onClose', () => services.identity.settled());
  await registerHook(app, services, signals);
  await registerStripeWebhook(app, services);
  registerMetrics(app, services, signals.timings);
  registerNotificationWorker(app, services, options.notifications);
  await registerOAuth(app, services);
  await registerApi(app, services, signals);
  if (options.webApp !== false) await registerWebApp(app, options.webDist);
  return app;
}

/**
 * While the server shuts down (from the first preClose hook, so before open streams end and the
 * listener closes), a request arriving on a kept-alive connection is refused 503 as every other
 * error, `{status, message}`, with the security headers (Fastify adds `Connection: close`): the
 * load balancer sends it elsewhere and the client may retry it, nothing was done.
 */
function registerClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Every request passes here, /hook's too: a callback hook, no promise per request.
  app.addHook('onRequest', (_req, _reply, done) => {
    done(closing ? new AppError('UNAVAILABLE', 'The server is shutting down, please try again') : undefined);
  });
}
