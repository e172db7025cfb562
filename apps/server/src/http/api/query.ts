// How /api/v1 refuses a request its route's schema does not accept: a message naming the
// parameter (`limit: …`), not Fastify's `querystring/limit Invalid input: …`, and a query
// parameter given twice (`?limit=1&limit=2`, which the query parser reads as a list) refused as
// such, rather than as "expected number, received NaN".
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { ApiInstance } from './scope.ts';

/** `limit: …`; the part of the request (`querystring`, `params`…) when the error is of all of it. */
export function schemaErrorMessage(errors: readonly FastifySchemaValidationError[], part: string): string {
  return errors.map((e) => `${e.instancePath.slice(1).replaceAll('/', '.') || part}: ${e.message}`).join('; ');
}

/** Refuses a parameter of the route's query given more than once. */
async function refuseRepeated(req: FastifyRequest): Promise<void> {
  const schema = req.routeOptions.schema?.querystring;
  if (!(schema instanceof z.ZodObject)) return;
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value) && name in schema.shape) throw new AppError('VALIDATION', `${name}: give it once`);
  }
}

export function registerRequestChecks(api: ApiInstance): void {
  api.setSchemaErrorFormatter((errors, part) => new Error(schemaErrorMessage(errors, part)));
  api.addHook('preValidation', refuseRepeated);
}
