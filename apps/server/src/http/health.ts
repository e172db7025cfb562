import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

/** GET /healthz: the process answers. GET /readyz: and the database does too. */
export function registerHealth(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await services.db.$client.query('select 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: 'database unreachable' });
    }
  });
}
