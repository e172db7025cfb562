// GraphQL Yoga on Fastify at /graphql (GET and POST), with graphql-armor limits and errors
// mapped through the AppError table; unknown errors are logged and answered generically.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { toAppError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { GraphQLContext, Viewer } from './context.ts';
import { schema } from './schema.ts';

interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Resolves the caller from the request (Bearer token, X-User); null when anonymous. */
export type Authenticate = (services: Services, req: FastifyRequest, bearer: string | null) => Promise<Viewer | null>;

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export function registerGraphQL(app: FastifyInstance, services: Services, authenticate: Authenticate): void {
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Signal Router GraphQL' },
    logging: false,
    plugins: [EnvelopArmorPlugin({ maxDepth: { n: 10 }, maxAliases: { n: 15 }, costLimit: { maxCost: 5000 } })],
    maskedErrors: {
      maskError(error) {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        if (original instanceof GraphQLError && !original.originalError) return original;
        const appError = toAppError(original);
        if (appError.code === 'INTERNAL') services.log.error({ err: original }, 'graphql resolver failed');
        return new GraphQLError(appError.message, {
          extensions: { code: appError.mapping.graphql, status: appError.mapping.status, field: appError.field },
        });
      },
    },
    context: async ({ req }): Promise<GraphQLContext> => {
      const bearer = bearerToken(req);
      return {
        services,
        viewer: await authenticate(services, req, bearer),
        requestId: String(req.id),
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? '',
        bearer,
      };
    },
  });

  // Yoga reads multipart bodies itself.
  app.addContentTypeParser('multipart/form-data', {}, (_req, _payload, done) => done(null));

  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      return reply.send(response.body);
    },
  });
}
