// GraphQL at /graphql (GET and POST). The Yoga server and its schema (yoga-server.ts, ~20 MB in
// memory) are loaded by the first request, not at server start: the hook path never uses them,
// so a server that only takes signals stays smaller. That first request waits for the load once.
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LiveHub } from '../modules/live/hub.ts';
import type { Services } from '../services.ts';
import type { Viewer } from './context.ts';
import type { GraphQLServer } from './yoga-server.ts';

/** Resolves the caller from the request (Bearer token, X-User); null when anonymous. */
export type Authenticate = (services: Services, req: FastifyRequest, bearer: string | null) => Promise<Viewer | null>;

export function registerGraphQL(app: FastifyInstance, services: Services, authenticate: Authenticate): void {
  // Listens only once someone subscribes; open streams end before the server closes.
  const live = new LiveHub(services);
  app.addHook('preClose', () => live.close());
  let loading: Promise<GraphQLServer> | undefined;
  const graphQLServer = () =>
    (loading ??= import('./yoga-server.ts')
      .then((module) => module.createGraphQLServer(services, authenticate, live))
      .catch((error: unknown) => {
        loading = undefined; // the next request tries again
        throw error;
      }));

  // Yoga reads multipart bodies itself.
  app.addContentTypeParser('multipart/form-data', {}, (_req, _payload, done) => done(null));

  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      // Answers carry the caller's data: no shared proxy (GET queries) or back-forward cache keeps them.
      reply.header('cache-control', 'no-store');
      // A JSON body with nothing in it (`{}`, `[]`, `null`, `0`, `false`) or a bare string: Yoga
      // would read the body again, from the stream Fastify has consumed, and answer "invalid JSON"
      // with the parser's internal error. It is no operation: the caller is told so.
      if (isJsonPost(req) && !isOperationBody(req.body)) return refuse(reply, 400, NO_OPERATION);
      const yoga = await graphQLServer();
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      // A refusal Yoga answers without a body (415: a content type it does not read) would go out
      // as `null`: it gets an error as every other refusal of /graphql has one.
      if (response.body === null && response.status >= 400) {
        return refuse(reply, response.status, refusalMessage(response.status));
      }
      return reply.send(response.body);
    },
  });
}

export const UNSUPPORTED_CONTENT_TYPE =
  'Unsupported content type: send a POST as application/json (or multipart/form-data), or use GET';

export const NO_OPERATION = 'POST body: send a JSON object with the operation in "query"';

function refuse(reply: FastifyReply, status: number, message: string) {
  reply.status(status).header('content-type', 'application/json; charset=utf-8');
  return reply.send({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
}

const isJsonPost = (req: FastifyRequest) =>
  req.method === 'POST' && req.body !== undefined && (req.headers['content-type'] ?? '').includes('json');

/** An object or array with something in it: Yoga reads it (and refuses an unknown key, or a batch). */
const isOperationBody = (body: unknown) => typeof body === 'object' && body !== null && Object.keys(body).length > 0;

function refusalMessage(status: number): string {
  return status === 415 ? UNSUPPORTED_CONTENT_TYPE : (STATUS_CODES[status] ?? 'Bad request');
}
