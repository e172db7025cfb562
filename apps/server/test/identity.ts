// Helpers for identity tests: GraphQL through app.inject, and signed-up users.
import type { FastifyInstance } from 'fastify';
import { findUserByEmail, updateUser } from '../src/db/repositories/user.repository.ts';
import { onEmailConfirmed } from '../src/modules/admin/confirmed.ts';
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

/**
 * Signs up, confirms the email as opening the mailed link does (mail is tested elsewhere: the
 * first confirmed user becomes administrator) and signs in.
 */
export async function confirmedUser(t: TestApp, email: string, password = STRONG_PASSWORD) {
  const signup = await gql<{ signup: { key: string; group: number } }>(t.app, SIGNUP, {
    credentials: { email, password },
  });
  if (!signup.data) throw new Error(JSON.stringify(signup.errors));
  const user = await t.services.db.transaction(async (tx) => {
    const row = await findUserByEmail(tx, email);
    const confirmed = row && (await updateUser(tx, row.id, { emailConfirmedAt: new Date() }));
    if (!confirmed) throw new Error(`no user ${email}`);
    return onEmailConfirmed(tx, t.services, confirmed);
  });
  const signin = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
    type: 'password',
    credentials: { email, password },
  });
  if (!signin.data) throw new Error(JSON.stringify(signin.errors));
  return { ...signup.data.signup, group: user.group, id: user.id, token: signin.data.signin.token };
}
