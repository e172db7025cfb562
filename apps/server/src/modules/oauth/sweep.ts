// Expired codes, tokens and interactions are never read again; they are deleted every 10 minutes
// (a delete of what has expired: instances running it together do no harm).
import type { FastifyInstance } from 'fastify';
import { sweepExpiredOidc } from '../../db/repositories/oidc.repository.ts';
import type { Services } from '../../services.ts';

const EVERY_MS = 10 * 60_000;

export function startOidcSweeper(app: FastifyInstance, services: Services): void {
  const timer = setInterval(() => {
    sweepExpiredOidc(services.db).catch((err: unknown) => services.log.warn({ err }, 'oauth sweep failed'));
  }, EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
