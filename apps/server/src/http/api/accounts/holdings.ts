// GET /api/v1/accounts/{id}/positions and /balances: the broker's holdings, where it offers them.
import { accountParamsSchema, apiBalancesSchema, apiListSchema, apiPositionSchema } from '@router/shared/api';
import type { z } from 'zod';
import { getApiBalances, getApiPositions, requireApiAccount } from '../../../modules/api/index.ts';
import { type ApiContext, type ApiInstance, bearerSecurity, LOOKUP_ERRORS, principal } from '../scope.ts';

const positionListSchema = apiListSchema(apiPositionSchema, 'PositionList');

/** Both routes' options: holdings:read, an account id, and what the broker gives. */
function holdingsOptions(operationId: string, summary: string, answer: z.ZodType) {
  return {
    config: { apiScope: 'holdings:read' as const },
    schema: {
      operationId,
      summary,
      description:
        'Asked of the broker at each call. Not offered by this broker: ExecutionError (400); the broker’s rate limit: 429 (with `Retry-After` when it gave one); the broker down or not answering: 503, retry later. Scope: holdings:read.',
      tags: ['Holdings'],
      security: bearerSecurity('holdings:read'),
      params: accountParamsSchema,
      response: { 200: answer, ...LOOKUP_ERRORS },
    },
  };
}

export function holdingsRoutes(api: ApiInstance, { services }: ApiContext): void {
  const account = (userId: number, id: string) => requireApiAccount(services, userId, id);
  api.get(
    '/accounts/:id/positions',
    holdingsOptions('listPositions', "List an account's positions", positionListSchema),
    async (req) => ({
      data: await getApiPositions(services, await account(principal(req).userId, req.params.id)),
      next: null,
    }),
  );
  api.get(
    '/accounts/:id/balances',
    holdingsOptions('getBalances', "Get an account's balances", apiBalancesSchema),
    async (req) => getApiBalances(services, await account(principal(req).userId, req.params.id)),
  );
}
