// Helpers for identity tests: GraphQL through app.inject, and signed-up users.
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './app.ts';

export interface GqlResult<T = Record<string, unknown>> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string; status?: string; field?: string } }>;
}

/** A password zxcvbn scores well above 10. */
export const STRONG_PASSWORD = 'Quartz-Lantern-Mosaic-91!';

export async function gql<T = Record<string, unknown>>(
  app: FastifyInstance,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GqlResult<T>> {
  const res = await app.inject({ method: 'POST', url: '/graphql', payload: { query, variables }, headers });
  return res.json() as GqlResult<T>;
}

export const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});

export const SIGNUP = `mutation($credentials: JSON!, $firstName: String) {
  signup(type: "password", credentials: $credentials, firstName: $firstName) { id key group email firstName }
}`;
export const SIGNIN = `mutation($type: String!, $credentials: JSON!, $metadata: JSON) {
  signin(type: $type, credentials: $credentials, metadata: $metadata) { token issuer email }
}`;

/** Signs up, confirms the email in the database (mail is tested elsewhere) and signs in. */
export async function confirmedUser(t: TestApp, email: string, password = STRONG_PASSWORD) {
  const signup = await gql<{ signup: { key: string; group: number } }>(t.app, SIGNUP, {
    credentials: { email, password },
  });
  if (!signup.data) throw new Error(JSON.stringify(signup.errors));
  await t.services.db.$client.query('update users set email_confirmed_at = now() where lower(email) = lower($1)', [
    email,
  ]);
  const signin = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
    type: 'password',
    credentials: { email, password },
  });
  if (!signin.data) throw new Error(JSON.stringify(signin.errors));
  const { rows } = await t.services.db.$client.query<{ id: string }>('select id from users where key = $1', [
    signup.data.signup.key,
  ]);
  return { ...signup.data.signup, id: Number(rows[0]?.id), token: signin.data.signin.token };
}
