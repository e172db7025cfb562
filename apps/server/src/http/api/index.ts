// The REST API v1 (issue #16): /api/v1 for personal API tokens and OAuth access tokens alike,
// its OpenAPI document (/api/openapi.json) and reference (/api/docs). Routes are thin: parse
// (the zod schemas of `@router/shared/api`), call one modules/api function, shape the answer.
import { MAX_BODY_LENGTH } from '@router/orders';
import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SignalRuntime } from '../../modules/signals/index.ts';
import type { Services } from '../../services.ts';
import { holdingsRoutes } from './accounts/holdings.ts';
import { listAccountsRoute } from './accounts/list.ts';
import { registerDocs } from './docs.ts';
import { registerGuard } from './guard.ts';
import { answerWrongMethods } from './methods.ts';
import { registerOpenApi } from './openapi.ts';
import { readOrderRoutes } from './orders/read.ts';
import { writeOrderRoutes } from './orders/write.ts';
import { registerRequestChecks } from './query.ts';

export const API_PREFIX = '/api/v1';

export async function registerApi(app: FastifyInstance, services: Services, signals: SignalRuntime): Promise<void> {
  await registerOpenApi(app, services);
  registerDocs(app, services.config.PUBLIC_URL);
  await app.register(
    async (scope) => {
      const api = scope.withTypeProvider<ZodTypeProvider>();
      api.setValidatorCompiler(validatorCompiler);
      api.setSerializerCompiler(serializerCompiler);
      // An order's body is read as text whatever its type (JSON, or TradingView-style text), as the hook reads it.
      api.removeAllContentTypeParsers();
      api.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_LENGTH }, (_req, body, done) => {
        done(null, body);
      });
      registerGuard(api, services);
      registerRequestChecks(api);
      answerWrongMethods(scope);
      const context = { services, signals };
      listAccountsRoute(api, context);
      holdingsRoutes(api, context);
      readOrderRoutes(api, context);
      writeOrderRoutes(api, context);
    },
    { prefix: API_PREFIX },
  );
}
