// POST /api/stripe/webhook: the raw body (Stripe signs the exact bytes) goes to the billing
// module; this plugin's own content-type parsers keep it a Buffer for every media type.
import type { FastifyInstance } from 'fastify';
import { receiveStripeEvent } from '../modules/billing/webhook.ts';
import type { Services } from '../services.ts';

export async function registerStripeWebhook(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post('/api/stripe/webhook', async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.headers['stripe-signature'];
      const answer = await receiveStripeEvent(services, raw, typeof signature === 'string' ? signature : undefined);
      return reply.status(answer.status).send(answer.body);
    });
  });
}
