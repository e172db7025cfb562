// The OAuth provider's HTTP surface: oidc-provider mounted at /oidc (through @fastify/middie, in
// its own scope so no other route runs the middleware hook), and the consent endpoints of
// SPEC §7 REST under /api/oauth. The provider and its library load with the first request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import middie from '@fastify/middie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../errors.ts';
import { startOidcSweeper } from '../modules/oauth/sweep.ts';
import type { Services } from '../services.ts';
import { bearerToken } from './bearer.ts';

let oauthModule: Promise<typeof import('../modules/oauth/index.ts')> | undefined;
const load = () => (oauthModule ??= import('../modules/oauth/index.ts'));

const raw = (req: FastifyRequest, reply: FastifyReply) => ({ req: req.raw, res: reply.raw });

function field(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A browser's form post gets a page (see pages.ts `continuePage`), a program a 303. */
const wantsHtml = (req: FastifyRequest): boolean => (req.headers.accept ?? '').includes('text/html');

export async function registerOAuth(app: FastifyInstance, services: Services): Promise<void> {
  startOidcSweeper(app, services);
  await app.register(async (scope) => {
    await scope.register(middie);
    let callback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
    scope.use('/oidc', (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
      load()
        .then(async ({ oauthProvider }) => {
          callback ??= (await oauthProvider(services)).callback();
          callback(req, res);
        })
        .catch(next);
    });
    // Reached only when the middleware passes a request on (the provider failed to load).
    const unreachable = async () => {
      throw new Error('the OAuth provider did not answer');
    };
    scope.all('/oidc', unreachable);
    scope.all('/oidc/*', unreachable);
  });

  await app.register(async (scope) => {
    // The consent form is a plain HTML form post.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    scope.get('/api/oauth/interaction', async (req, reply) => {
      const { consentDetails } = await load();
      return consentDetails(services, raw(req, reply), field(req.query, 'uid') ?? '', bearerToken(req), req.ip);
    });

    scope.post('/api/oauth/authorize', async (req, reply) => {
      const { completeConsent, continuePage, errorPage } = await load();
      reply.header('cache-control', 'no-store');
      const next = await completeConsent(services, raw(req, reply), {
        uid: field(req.query, 'uid') ?? field(req.body, 'uid') ?? '',
        ip: req.ip,
        clientId: field(req.query, 'client_id'),
        accessToken: field(req.body, 'access_token'),
        token: field(req.body, 'token'),
        deny: field(req.body, 'decision') === 'deny',
      }).catch((error: unknown) => {
        // The consent form is a plain form post: a browser shows this answer as the page, so a
        // refusal is a page saying why ('start again from the application'), not raw JSON.
        if (!isAppError(error) || !wantsHtml(req)) throw error;
        const { status, message } = error.toBody();
        reply.status(error.mapping.http).type('text/html; charset=utf-8').send(errorPage(status, message));
        return null;
      });
      if (next === null) return reply;
      if (wantsHtml(req)) return reply.type('text/html; charset=utf-8').send(continuePage(next));
      return reply.redirect(next, 303);
    });

    scope.post('/api/oauth/legacy-register', async (req, reply) => {
      const { legacyRegister } = await load();
      return legacyRegister(services, raw(req, reply), req.ip, req.body);
    });
  });
}
