// GET /metrics (Prometheus text format), only when METRICS_TOKEN is set and only for
// `Authorization: Bearer <METRICS_TOKEN>`. Without the variable the route does not exist (404).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createMetricsRegistry } from '../modules/metrics/prometheus.ts';
import type { SignalTimings } from '../modules/signals/timings.ts';
import type { Services } from '../services.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function registerMetrics(app: FastifyInstance, services: Services, timings: SignalTimings): void {
  const token = services.config.METRICS_TOKEN;
  if (!token) return;
  const expected = digest(`Bearer ${token}`);
  const registry = createMetricsRegistry({ counters: services.counters, timings, pool: services.db.$client });
  app.get('/metrics', async (req, reply) => {
    // Compared as digests: equal lengths, and the time taken tells nothing about the token.
    if (!timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ status: 'AuthenticationError', message: 'A valid metrics token is required' });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
