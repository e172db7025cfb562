// POST /api/v1/accounts/{id}/orders (place, through the signal path) and DELETE
// /api/v1/orders/{orderId} (cancel at the broker).
import { MAX_BODY_LENGTH } from '@router/orders';
import {
  accountParamsSchema,
  apiOrderBodySchema,
  apiOrderSchema,
  idempotencyHeadersSchema,
  orderParamsSchema,
} from '@router/shared/api';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { cancelApiOrder, placeApiOrder, requireApiAccount } from '../../../modules/api/index.ts';
import { type ApiContext, type ApiInstance, bearerSecurity, LOOKUP_ERRORS, principal } from '../scope.ts';

// The body schema documents the order language; the body itself goes to the signal path as text,
// which validates it exactly as for a hook (same messages), so the route does not.
const bodyAsText: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never);

export function writeOrderRoutes(api: ApiInstance, { services, signals }: ApiContext): void {
  api.post(
    '/accounts/:id/orders',
    {
      config: { apiScope: 'orders:write' },
      bodyLimit: MAX_BODY_LENGTH,
      validatorCompiler: bodyAsText,
      schema: {
        operationId: 'placeOrder',
        summary: 'Place an order',
        description:
          'The body is the webhook order language, validated the same way, and the order is placed exactly once: a repeat to the same account by the same application (any of its access tokens) or the same personal token with the same `Idempotency-Key` within 24 hours (without one, the same `client_id` or body within the dedupe window, 60 s by default) answers the first order and places nothing, also while the first is still being placed (the same key sent to another account, or by another application or token, is another order); a used `Idempotency-Key` with another body within those 24 hours is refused (400 ValidationError) and places nothing. Each order spends one signal credit. The broker refusing the order answers 400 (ExecutionError; AuthenticationError when it refused the connection’s credentials); its rate limit 429, with `Retry-After` when it gave one, and its outage 503: the order was not placed, its credit is given back and its `Idempotency-Key` is free again, so send it again (with the same key) after a while. A broker that did not answer in time leaves the order `pending` (201), looked up later. The trader’s activity log names who sent the order: your application’s name, or the personal token’s. Scope: orders:write.',
        tags: ['Orders'],
        security: bearerSecurity('orders:write'),
        params: accountParamsSchema,
        headers: idempotencyHeadersSchema,
        body: apiOrderBodySchema,
        response: {
          201: apiOrderSchema,
          ...LOOKUP_ERRORS,
        },
      },
    },
    async (req, reply) => {
      const receivedAt = performance.now();
      const { userId, client, caller } = principal(req);
      const account = await requireApiAccount(services, userId, req.params.id);
      const result = await placeApiOrder(services, signals, {
        userId,
        account,
        body: typeof req.body === 'string' ? req.body : undefined,
        idempotencyKey: req.headers['idempotency-key'],
        client,
        caller,
        address: req.ip,
        receivedAt,
      });
      if ('order' in result) return reply.status(201).send(result.order);
      if (result.retryAfterS !== undefined) reply.header('retry-after', String(result.retryAfterS));
      return reply.status(result.statusCode as 400).send(result.error);
    },
  );

  api.delete(
    '/orders/:orderId',
    {
      config: { apiScope: 'orders:write' },
      schema: {
        operationId: 'cancelOrder',
        summary: 'Cancel an order',
        description:
          'Asks the broker to cancel the order and answers it as canceled. An order already filled, rejected or canceled, one still being placed, or one at a broker that cannot cancel here answers ExecutionError (400); the broker’s rate limit 429 (with `Retry-After` when it gave one), the broker down or not answering 503: retry. Scope: orders:write.',
        tags: ['Orders'],
        security: bearerSecurity('orders:write'),
        params: orderParamsSchema,
        response: { 200: apiOrderSchema, ...LOOKUP_ERRORS },
      },
    },
    async (req) => cancelApiOrder(services, signals, principal(req).userId, req.params.orderId),
  );
}
