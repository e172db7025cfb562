// The OpenAPI 3.1 document, generated from the /api/v1 route schemas (@fastify/swagger collects
// every route; the zod schemas become JSON Schema and, where they carry a registry id, components),
// served at /api/openapi.json. Only tagged routes are in it: /graphql, /hook and the rest are not.
import swagger from '@fastify/swagger';
import { API_SCOPES } from '@router/shared';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from '../../modules/oauth/lifetimes.ts';
import type { Services } from '../../services.ts';

export const OPENAPI_PATH = '/api/openapi.json';
/** modules/oauth/provider.ts OIDC_PATH, not imported: that module loads oidc-provider. */
const OIDC_PATH = '/oidc';

/** What an application's developer needs of the provider (its configuration: modules/oauth/provider.ts). */
const applications = (origin: string) => `

Applications (Settings → Applications, for professional accounts) follow OpenID Connect discovery at
\`${origin}${OIDC_PATH}/.well-known/openid-configuration\`: the authorization code flow only, with PKCE
(S256) required and the redirect URI exactly as registered; the client authenticates at the token
endpoint with its secret (HTTP Basic, or \`client_secret\` in the form). Access tokens last
${ACCESS_TOKEN_TTL_S / 3600} hour; every token response carries a refresh token (${REFRESH_TOKEN_TTL_S / 86_400} days), spent by its use:
keep the new one each time and never send one twice (two workers refreshing at once included), since
a refresh token presented again ends the user's grant and every token under it, and the user must
grant access again. A user may revoke an application in Settings whenever they choose: its tokens then answer 401.`;

const DESCRIPTION = `Place and follow orders on your connected broker accounts.

Authenticate with \`Authorization: Bearer <token>\`: a personal API token (Settings → API tokens;
every scope) or an OAuth 2.0 access token of an application (authorization code with PKCE at the
provider below; the scopes the user granted). Errors answer \`{"status", "message"}\` with status
ValidationError, ExecutionError, AuthenticationError (401: this token; 400: the broker refused the
connection's own credentials, reconnect the broker), ForbiddenError (403: a scope is
missing, or the user's account may not use the API) or Error (404; 429: this token's limit, or the
broker's, with \`Retry-After\` when known; 500; 503 while the server restarts, or its database or the
broker is out of reach or did not answer: retry after its \`Retry-After\`). Each token may make a limited number of requests per second:
every answer tells the allowance in \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`
(seconds until it is whole again); over it: 429 with \`Retry-After\` (seconds). Lists answer \`{"data": [...], "next": cursor|null}\`.
A path asked with a method it does not take answers 405 with \`Allow\` naming those it takes.`;

/** The headers of the guard's refusals (guard.ts), declared once and named by each answer. */
const HEADERS = {
  'WWW-Authenticate': {
    description:
      'RFC 6750 challenge: `Bearer realm="api"`, with `error="invalid_token"` for an unknown, expired or revoked token, or `error="insufficient_scope", scope="<scope>"` for a missing scope.',
    schema: { type: 'string', examples: ['Bearer realm="api", error="invalid_token"'] },
  },
  'Retry-After': {
    description:
      "Seconds until a request may pass again: 429, this token's limit, or the broker's rate limit when the broker said when; 503, always (a dependency down: a few seconds).",
    schema: { type: 'integer', minimum: 1, examples: [1] },
  },
  'RateLimit-Limit': {
    description: 'Requests this token may make at once (its allowance refills at a steady rate).',
    schema: { type: 'integer', minimum: 1, examples: [50] },
  },
  'RateLimit-Remaining': {
    description: 'Requests this token may still make now; at 0 the next one answers 429.',
    schema: { type: 'integer', minimum: 0, examples: [49] },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the allowance is whole again (0: it is).',
    schema: { type: 'integer', minimum: 0, examples: [1] },
  },
} as const;

type HeaderName = keyof typeof HEADERS;

/** Every answer once the token is counted (all but a request with no token at all, or refused by its address). */
const RATE_LIMIT: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const HEADERS_OF: Record<string, HeaderName> = {
  '401': 'WWW-Authenticate',
  '403': 'WWW-Authenticate',
  '429': 'Retry-After',
  '503': 'Retry-After',
};

type OpenApiObject = ReturnType<typeof jsonSchemaTransformObject>;

/** What each status means, for the reference (the swagger plugin writes 'Default Response' for all). */
const ANSWERS: Record<string, string> = {
  '200': 'Success',
  '201':
    'The order placed; for a repeat (same `Idempotency-Key`, or `client_id` or body within the window), the first order, nothing placed again',
  '400':
    "ValidationError: a malformed parameter or body. ExecutionError: the broker refused (or cannot do it). AuthenticationError: the broker refused the connection's credentials, reconnect the broker",
  '401': 'AuthenticationError: no token, or an unknown, expired or revoked one',
  '403': "ForbiddenError: the token lacks the operation's scope, or the user's account may not use the API",
  '404': 'Error: no such account or order among the user’s',
  '413': 'ValidationError: the request body is too large',
  '429': "Error: too many requests, this token's or the broker's; wait `Retry-After` seconds",
  '500': 'Error: our own failure',
  '503':
    'Error: the server restarts, or the database or broker is out of reach or did not answer; retry after `Retry-After`',
};

/**
 * Declares HEADERS in the components, on every operation's 401, 403, 429 and 503, and RateLimit-* on
 * every answer; and says what each answer means (ANSWERS).
 */
function declareHeaders(document: OpenApiObject): OpenApiObject {
  const doc = document as {
    paths?: Record<
      string,
      Record<string, { responses?: Record<string, { description?: string; headers?: Record<string, unknown> }> }>
    >;
    components?: { headers?: Record<string, unknown> };
  };
  doc.components = { ...doc.components, headers: { ...doc.components?.headers, ...HEADERS } };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const names = [...(HEADERS_OF[status] ? [HEADERS_OF[status]] : []), ...RATE_LIMIT];
        const refs = Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
        response.headers = { ...response.headers, ...refs };
        if (ANSWERS[status] && response.description === 'Default Response') response.description = ANSWERS[status];
      }
    }
  }
  return document;
}

/**
 * Header parameters under their canonical names (`Idempotency-Key`): the route schemas name them
 * in lower case, as Node hands them over (HTTP header names are case-insensitive).
 */
function canonicalHeaderNames(document: OpenApiObject): OpenApiObject {
  const doc = document as { paths?: Record<string, Record<string, { parameters?: { in?: string; name?: string }[] }>> };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'header' || !parameter.name) continue;
        parameter.name = parameter.name.replace(
          /(^|-)([a-z])/g,
          (_m, dash: string, c: string) => dash + c.toUpperCase(),
        );
      }
    }
  }
  return document;
}

const SCHEMA_REF = '#/components/schemas/';

/** The component names `value` refers to ("$ref": "#/components/schemas/<name>"), anywhere in it. */
function referencedSchemas(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencedSchemas(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_REF))
        into.add(item.slice(SCHEMA_REF.length));
      else referencedSchemas(item, into);
    }
  }
  return into;
}

/**
 * The zod provider writes every registered schema twice, as answered (`Order`) and as taken
 * (`OrderInput`), whether an operation uses it or not: the reference listed `OrderInput` (the
 * answer's shape, which no route takes) beside `OrderRequestInput` (the body), ten models no
 * route used. Keeps the components the operations reach, and names a taken one without its
 * `Input` where no answered one has the name (`OrderRequest`).
 */
function keepUsedSchemas(document: OpenApiObject): OpenApiObject {
  const doc = document as { paths?: unknown; components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  if (!doc.components || !schemas) return document;
  const used = referencedSchemas(doc.paths);
  for (const name of used) referencedSchemas(schemas[name], used);
  const renamed = new Map<string, string>();
  for (const name of used) {
    const base = name.replace(/Input$/, '');
    if (base !== name && !used.has(base)) renamed.set(name, base);
  }
  const kept = Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => used.has(name))
      .map(([name, schema]) => [renamed.get(name) ?? name, schema]),
  );
  doc.components = { ...doc.components, schemas: kept };
  let text = JSON.stringify(doc);
  for (const [from, to] of renamed) text = text.replaceAll(`"${SCHEMA_REF}${from}"`, `"${SCHEMA_REF}${to}"`);
  return JSON.parse(text) as OpenApiObject;
}

export async function registerOpenApi(app: FastifyInstance, services: Services): Promise<void> {
  const origin = services.config.PUBLIC_URL;
  await app.register(swagger, {
    hideUntagged: true,
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Signal Router API', version: '1.0.0', description: DESCRIPTION + applications(origin) },
      servers: [{ url: origin }],
      tags: [
        { name: 'Accounts', description: "The user's connected broker accounts" },
        { name: 'Orders', description: 'Orders placed on an account (the webhook order language)' },
        { name: 'Holdings', description: 'Positions and balances, where the broker offers them' },
      ],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token or an OAuth access token' },
          oauth2: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: `${origin}${OIDC_PATH}/auth`,
                tokenUrl: `${origin}${OIDC_PATH}/token`,
                refreshUrl: `${origin}${OIDC_PATH}/token`,
                scopes: { ...API_SCOPES },
              },
            },
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => canonicalHeaderNames(declareHeaders(keepUsedSchemas(jsonSchemaTransformObject(input)))),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    // Public and read without credentials: web tools on other origins (an online editor, a
    // client generator's page) may load it. The API itself sends no CORS header.
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    return app.swagger();
  });
}
