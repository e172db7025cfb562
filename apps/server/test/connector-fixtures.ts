// Helpers for connector, hook and notification tests: GraphQL through app.inject (data, or the
// first error's message and code) and a connected broker in one call.
import type { TestApp } from './app.ts';

export interface GraphQLAnswer<T> {
  data: T | null;
  error?: { message: string; code?: string; field?: string; retryAfter?: number };
  /** The raw body, to assert what never appears in an answer. */
  body: string;
}

export async function gql<T = Record<string, unknown>>(
  t: TestApp,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLAnswer<T>> {
  const res = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  const json = res.json() as {
    data?: T | null;
    errors?: Array<{ message: string; extensions?: { code?: string; field?: string; retryAfter?: number } }>;
  };
  const first = json.errors?.[0];
  return {
    data: json.data ?? null,
    ...(first
      ? {
          error: {
            message: first.message,
            code: first.extensions?.code,
            field: first.extensions?.field,
            retryAfter: first.extensions?.retryAfter,
          },
        }
      : {}),
    body: res.body,
  };
}

export const CONNECTOR_FIELDS = 'key providerName accounts branch status isActive isDemo expiresAt';
export const HOOK_FIELDS = 'key shortKey name accountId isActive isTest connector { key providerName } calledAt url';

export interface ConnectorAnswer {
  key: string;
  providerName: string;
  accounts: string;
  branch: string | null;
  status: number;
  isActive: boolean;
  isDemo: boolean;
  expiresAt: number | null;
}

/** connectorActivate; throws with the GraphQL error when it fails. */
export async function connect(
  t: TestApp,
  headers: Record<string, string>,
  providerName: string,
  credentials: string[] = [],
): Promise<ConnectorAnswer> {
  const answer = await gql<{ connectorActivate: ConnectorAnswer }>(
    t,
    headers,
    `mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { ${CONNECTOR_FIELDS} } }`,
    { p: providerName, c: credentials },
  );
  if (!answer.data) throw new Error(`connect ${providerName} failed: ${answer.error?.message}`);
  return answer.data.connectorActivate;
}
