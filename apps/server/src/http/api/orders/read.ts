// GET /api/v1/accounts/{id}/orders and GET /api/v1/orders/{orderId}: the caller's orders.
import {
  accountParamsSchema,
  apiListSchema,
  apiOrderSchema,
  apiPageQuerySchema,
  orderParamsSchema,
} from '@router/shared/api';
import { getApiOrder, listApiOrders, requireApiAccount } from '../../../modules/api/index.ts';
import { type ApiContext, type ApiInstance, bearerSecurity, LOOKUP_ERRORS, principal } from '../scope.ts';

const orderListSchema = apiListSchema(apiOrderSchema, 'OrderList');

export function readOrderRoutes(api: ApiInstance, { services, signals }: ApiContext): void {
  api.get(
    '/accounts/:id/orders',
    {
      config: { apiScope: 'orders:read' },
      schema: {
        operationId: 'listOrders',
        summary: "List an account's orders",
        description: 'Newest first, placed by webhooks and by the API alike. Scope: orders:read.',
        tags: ['Orders'],
        security: bearerSecurity('orders:read'),
        params: accountParamsSchema,
        querystring: apiPageQuerySchema,
        response: { 200: orderListSchema, ...LOOKUP_ERRORS },
      },
    },
    async (req) => {
      const { userId } = principal(req);
      const account = await requireApiAccount(services, userId, req.params.id);
      return listApiOrders(services, signals, userId, account, req.query);
    },
  );

  api.get(
    '/orders/:orderId',
    {
      config: { apiScope: 'orders:read' },
      schema: {
        operationId: 'getOrder',
        summary: 'Get an order',
        description: 'Its status as last recorded. Scope: orders:read.',
        tags: ['Orders'],
        security: bearerSecurity('orders:read'),
        params: orderParamsSchema,
        response: { 200: apiOrderSchema, ...LOOKUP_ERRORS },
      },
    },
    async (req) => getApiOrder(services, signals, principal(req).userId, req.params.orderId),
  );
}
