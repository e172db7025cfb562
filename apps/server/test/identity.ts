// Helpers for identity tests: GraphQL through app.inject, and signed-up users.
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
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
  // Its confirmation mail (sent after the answer) is out before the test counts mails.
  await t.services.identity.settled();
  return { ...signup.data.signup, group: user.group, id: user.id, token: signin.data.signin.token };
}

/** The authenticator app's code for `secret`, `steps` time steps (30 s each) from now. */
export const totpCode = (secret: string, steps = 0) =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

/**
 * A confirmed user (as confirmedUser) whose second factor is active: enrolled with the current
 * step's code, so only later steps pass. Also its secret and the recovery codes shown once.
 */
export async function userWithSecondFactor(t: TestApp, email: string) {
  const user = await confirmedUser(t, email);
  const pending = await gql<{ userPasscode: { secret: string } }>(
    t.app,
    '{ userPasscode { secret } }',
    {},
    bearer(user.token),
  );
  const secret = pending.data?.userPasscode.secret ?? '';
  const activated = await gql<{ userPasscodeUpdate: { isActive: boolean; recoveryCodes: string[] } }>(
    t.app,
    'mutation($s: String!, $p: String!) { userPasscodeUpdate(secret: $s, passcode: $p) { isActive recoveryCodes } }',
    { s: secret, p: totpCode(secret) },
    bearer(user.token),
  );
  if (!activated.data?.userPasscodeUpdate.isActive) throw new Error(JSON.stringify(activated.errors));
  // Its notice (sent after the answer) is out before the test counts mails.
  await t.services.identity.settled();
  return { ...user, secret, recoveryCodes: activated.data.userPasscodeUpdate.recoveryCodes };
}

/** A password sign-in of a user with an active second factor: the identity token it answers. */
export async function identityToken(t: TestApp, email: string, password = STRONG_PASSWORD): Promise<string> {
  const answer = await gql<{ signin: { token: string; issuer: string } }>(t.app, SIGNIN, {
    type: 'password',
    credentials: { email, password },
  });
  if (answer.data?.signin.issuer !== 'identity') throw new Error(`no identity token: ${JSON.stringify(answer)}`);
  return answer.data.signin.token;
}
