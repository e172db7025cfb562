// GET /api/v1/accounts/{id}/positions and /balances: the broker's holdings, where it offers them.
import { accountParamsSchema, apiBalancesSchema, apiListSchema, apiPositionSchema } from '@router/shared/api';
import { getApiBalances, getApiPositions, requireApiAccount } from '../../../modules/api/index.ts';
import { type ApiContext, type ApiInstance, bearerSecurity, LOOKUP_ERRORS, principal } from '../scope.ts';

const positionListSchema = apiListSchema(apiPositionSchema, 'PositionList');
const NOT_OFFERED = 'Not offered by this broker: ExecutionError (400).';

export function holdingsRoutes(api: ApiInstance, { services }: ApiContext): void {
  api.get(
    '/accounts/:id/positions',
    {
      config: { apiScope: 'holdings:read' },
      schema: {
        operationId: 'listPositions',
        summary: "List an account's positions",
        description: `Asked of the broker at each call. ${NOT_OFFERED} Scope: holdings:read.`,
        tags: ['Holdings'],
        security: bearerSecurity('holdings:read'),
        params: accountParamsSchema,
        response: { 200: positionListSchema, ...LOOKUP_ERRORS },
      },
    },
    async (req) => {
      const account = await requireApiAccount(services, principal(req).userId, req.params.id);
      return { data: await getApiPositions(services, account), next: null };
    },
  );

  api.get(
    '/accounts/:id/balances',
    {
      config: { apiScope: 'holdings:read' },
      schema: {
        operationId: 'getBalances',
        summary: "Get an account's balances",
        description: `Asked of the broker at each call. ${NOT_OFFERED} Scope: holdings:read.`,
        tags: ['Holdings'],
        security: bearerSecurity('holdings:read'),
        params: accountParamsSchema,
        response: { 200: apiBalancesSchema, ...LOOKUP_ERRORS },
      },
    },
    async (req) => getApiBalances(services, await requireApiAccount(services, principal(req).userId, req.params.id)),
  );
}
