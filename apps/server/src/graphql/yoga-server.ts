// The GraphQL Yoga server: the schema, graphql-armor limits, and errors mapped through the
// AppError table (unknown errors are logged and answered generically). yoga.ts loads this module
// on the first /graphql request.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { toAppError } from '../errors.ts';
import { bearerToken } from '../http/bearer.ts';
import { asAppError } from '../modules/connectors/broker-error.ts';
import type { LiveHub } from '../modules/live/hub.ts';
import type { Services } from '../services.ts';
import type { GraphQLContext } from './context.ts';
import { errorCodesPlugin } from './error-codes.ts';
import { proxyAuditPlugin } from './proxy-audit.ts';
import { schema } from './schema.ts';
import type { Authenticate } from './yoga.ts';

export interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export type GraphQLServer = YogaServerInstance<ServerContext, GraphQLContext>;

export function createGraphQLServer(services: Services, authenticate: Authenticate, live: LiveHub): GraphQLServer {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Signal Router GraphQL' },
    logging: false,
    plugins: [
      EnvelopArmorPlugin({ maxDepth: { n: 10 }, maxAliases: { n: 15 }, costLimit: { maxCost: 5000 } }),
      proxyAuditPlugin(),
      errorCodesPlugin(),
    ],
    maskedErrors: {
      maskError(error) {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        if (original instanceof GraphQLError && !original.originalError) return original;
        const appError = toAppError(asAppError(original));
        if (appError.code === 'INTERNAL') services.log.error({ err: original }, 'graphql resolver failed');
        else if (appError.code === 'UNAVAILABLE' && appError.cause) {
          services.log.warn({ err: original }, 'graphql resolver: dependency unavailable');
        }
        // retryAfter: whole seconds to wait (a rate limit, a dependency down), as REST's Retry-After.
        const { retryAfterS: retryAfter } = appError;
        return new GraphQLError(appError.message, {
          extensions: {
            code: appError.mapping.graphql,
            status: appError.mapping.status,
            field: appError.field,
            ...(retryAfter === undefined ? {} : { retryAfter }),
          },
        });
      },
    },
    context: async ({ req }): Promise<GraphQLContext> => {
      const bearer = bearerToken(req);
      return {
        services,
        viewer: await viewerOf(services, authenticate, req, bearer),
        requestId: String(req.id),
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? '',
        acceptLanguage: req.headers['accept-language'] ?? '',
        bearer,
        live,
        reauthenticate: () => authenticate(services, req, bearer).catch(() => null),
      };
    },
  });
}

/**
 * The caller, with bearer tokens that resolve to nothing limited per client address as the REST
 * API limits them (modules/auth/failed-auth.ts): an address spraying random tokens is refused
 * before the database lookup, while tokens that authenticated lately still pass. A second-factor
 * token is no viewer but a live credential (its session is cached by the lookup): no failure.
 */
async function viewerOf(services: Services, authenticate: Authenticate, req: FastifyRequest, bearer: string | null) {
  if (!bearer) return authenticate(services, req, null);
  // Answered as every GraphQL rate limit is: code RATE_LIMITED (the web app keeps the session).
  return services.identity.failedAuth.resolve(
    req.ip,
    bearer,
    () => authenticate(services, req, bearer),
    (viewer, hash) => viewer !== null || services.identity.sessions.get(hash) !== undefined,
  );
}
