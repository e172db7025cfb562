// What every /api/v1 route shares: the zod-typed Fastify scope, the caller (ApiPrincipal) and the
// route's required scope, and the error answers of its schema.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiScope } from '@router/shared';
import { apiErrorSchema } from '@router/shared/api';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiPrincipal } from '../../modules/oauth/verify-bearer.ts';
import type { SignalRuntime } from '../../modules/signals/index.ts';
import type { Services } from '../../services.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The OAuth scope an /api/v1 route requires (403 without it). */
    apiScope?: ApiScope;
  }
  interface FastifyRequest {
    /** The verified bearer of an /api/v1 request (set before its handler runs). */
    apiPrincipal: ApiPrincipal | null;
  }
}

export type ApiInstance = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface ApiContext {
  services: Services;
  signals: SignalRuntime;
}

/** The caller of a route behind the guard (guard.ts answers 401 before a handler could run without one). */
export function principal(req: { apiPrincipal: ApiPrincipal | null }): ApiPrincipal {
  if (!req.apiPrincipal) throw new Error('an /api/v1 handler ran without a verified caller');
  return req.apiPrincipal;
}

/**
 * The error answers every authenticated route may give. 413: every route of the scope reads a
 * request body (whatever its method) up to the order's limit, and refuses a larger one. 500: our
 * own failure (generic message); 503: the server is shutting down, or a dependency is down.
 */
export const COMMON_ERRORS = {
  401: apiErrorSchema,
  403: apiErrorSchema,
  413: apiErrorSchema,
  429: apiErrorSchema,
  500: apiErrorSchema,
  503: apiErrorSchema,
} as const;

/** Routes with parameters also answer 400 (a malformed one) and 404 (unknown, or another user's). */
export const LOOKUP_ERRORS = { ...COMMON_ERRORS, 400: apiErrorSchema, 404: apiErrorSchema } as const;

export const bearerSecurity = (scope: ApiScope): Array<Record<string, string[]>> => [
  { bearer: [] },
  { oauth2: [scope] },
];
