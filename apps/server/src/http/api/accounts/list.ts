// GET /api/v1/accounts: the caller's broker accounts.
import { apiAccountSchema, apiListSchema } from '@router/shared/api';
import { listApiAccounts } from '../../../modules/api/index.ts';
import { type ApiContext, type ApiInstance, bearerSecurity, COMMON_ERRORS, principal } from '../scope.ts';

const accountListSchema = apiListSchema(apiAccountSchema, 'AccountList');

export function listAccountsRoute(api: ApiInstance, { services }: ApiContext): void {
  api.get(
    '/accounts',
    {
      config: { apiScope: 'accounts:read' },
      schema: {
        operationId: 'listAccounts',
        summary: 'List your connected broker accounts',
        description: 'Every account of every broker connection of the user. Scope: accounts:read.',
        tags: ['Accounts'],
        security: bearerSecurity('accounts:read'),
        response: { 200: accountListSchema, ...COMMON_ERRORS },
      },
    },
    async (req) => ({ data: await listApiAccounts(services, principal(req).userId), next: null }),
  );
}
