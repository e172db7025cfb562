// Errors become SPEC §8 bodies `{status, message}` with the HTTP status of the error table.
// No stack traces or SQL reach a response; unknown errors are logged with the request id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toAppError } from '../errors.ts';
import { asAppError } from '../modules/connectors/broker-error.ts';

function fromFastify(error: FastifyError): AppError | null {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError('VALIDATION', 'Unsupported content type');
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new AppError('VALIDATION', 'Request body is empty');
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return new AppError('VALIDATION', `Invalid JSON: ${error.message}`);
  }
  if (error.validation) return new AppError('VALIDATION', error.message);
  if (error.statusCode === 429) return new AppError('RATE_LIMITED', 'Too many requests, slow down');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return new AppError('VALIDATION', error.message);
  return null;
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs (a path whose
 * %-escapes do not decode, a path parameter past `maxParamLength`) answers `{status, message}` as
 * every other error, not Fastify's own `{error, code, message, statusCode}` (nor a 414): for
 * /api/v1 the documented 400 of a bad id. No hook runs for it, helmet's neither: `headers` are
 * helmet's (security-headers.ts securityHeaders), set here as on every other answer.
 */
export function frameworkError(headers: ReadonlyArray<readonly [string, string]>) {
  return (error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    const appError =
      error.code === 'FST_ERR_BAD_URL'
        ? new AppError('VALIDATION', 'Malformed URL: a %-escape of the path does not decode')
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('VALIDATION', 'A path parameter is too long')
          : toAppError(error);
    if (appError.code === 'INTERNAL') reply.log.error({ err: error }, 'request failed');
    for (const [name, value] of headers) reply.header(name, value);
    reply.status(appError.mapping.http).send(appError.toBody());
  };
}

/** The GraphQL endpoint (graphql/yoga.ts), not imported: that module loads the live hub. */
const GRAPHQL_PATH = '/graphql';

/**
 * What /graphql refuses before Yoga reads the request (a body that is no JSON or too large, no
 * content type, the server shutting down) answers as a GraphQL error, as Yoga's own refusals do:
 * `{errors: [{message, extensions: {code, status, retryAfter?}}]}` with the same HTTP status.
 */
function graphqlBody(error: AppError) {
  const retryAfter = error.retryAfterS;
  const extensions = {
    code: error.mapping.graphql,
    status: error.mapping.status,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
  return { errors: [{ message: error.message, extensions }] };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const appError = fromFastify(error) ?? toAppError(asAppError(error));
    if (appError.code === 'INTERNAL') req.log.error({ err: error }, 'request failed');
    else if (appError.code === 'UNAVAILABLE' && appError.cause) req.log.warn({ err: error }, 'dependency unavailable');
    if (appError.retryAfterS !== undefined) reply.header('retry-after', String(appError.retryAfterS));
    const body = req.routeOptions.url === GRAPHQL_PATH ? graphqlBody(appError) : appError.toBody();
    return reply.status(appError.mapping.http).send(body);
  });
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send(new AppError('NOT_FOUND', `Not found: ${req.method} ${req.url.split('?')[0]}`).toBody()),
  );
}
