// The legacy consent variant: an application naming the user's email (login_hint) gets the
// partner screen, which may create the account (POST /api/oauth/legacy-register); its one-time
// token, exchanged at /signin (issuer "id"), asks for the emailed confirmation, whose link signs
// in, and the user grants access. A registered email answers the same. Should a session exist
// before the owner proves the email, what was done with it is revoked then (pre-hijacking).
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, confirmedUser, gql, SIGNIN, totpCode } from '../../../test/identity.ts';
import {
  browse,
  CookieJar,
  discover,
  grantAccess,
  type OAuthServer,
  professionalWithApp,
  startAuthorization,
  startOAuthServer,
} from '../../../test/oauth.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { findUserByEmail } from '../../db/repositories/user.repository.ts';
import { issueSession } from '../auth/sessions.ts';
import { CONFIRM_FIRST } from '../auth/signin.ts';
import { verifyBearer } from './verify-bearer.ts';

let server: OAuthServer;
let smtp: SmtpSink;
let app: { key: string; secret: string };
beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startOAuthServer({ SMTP_URL: smtp.url });
  ({ app } = await professionalWithApp(server, 'partner-dev@example.test'));
  await confirmedUser(server, 'taken@example.test');
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const register = (jar: CookieJar, body: Record<string, unknown>) =>
  browse(jar, `${server.baseUrl}/api/oauth/legacy-register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * A session of the unproven account, as one signed in before its email was proven (none is any
 * more: the one-time token asks for the confirmation); what claim.ts revokes.
 */
async function unprovenSession(email: string): Promise<string> {
  const user = await findUserByEmail(server.services.db, email);
  if (!user || user.emailConfirmedAt) throw new Error(`no unproven ${email}`);
  return (await issueSession(server.services, user.id, 'session', { address: null })).token;
}

const exchange = (token: string) =>
  gql<{ signin: { token: string; issuer: string } }>(server.app, SIGNIN, {
    type: 'token',
    credentials: { issuer: 'id', token },
  });

describe('legacy consent and registration', () => {
  it('creates the named account, signs nobody in before the email is proven, and the confirmation link leads to the grant', async () => {
    const config = await discover(server, app);
    const email = 'newcomer@example.test';
    const start = await startAuthorization(config, server, { login_hint: email });
    expect(start.consentUrl.pathname).toBe('/signin/partner');
    expect(start.consentUrl.searchParams.get('email')).toBe(email);
    const query = Object.fromEntries(start.consentUrl.searchParams);

    const cookieless = await register(new CookieJar(), query);
    expect(cookieless.status).toBe(400);
    expect(await cookieless.json()).toEqual({
      status: 'ValidationError',
      message: 'This authorization request has expired. Please start again from the application.',
    });
    const otherEmail = await register(start.jar, { ...query, email: 'someone-else@example.test' });
    expect(await otherEmail.json()).toEqual({
      status: 'ValidationError',
      message: 'This is not the email the application asked for',
    });
    const invalid = await register(start.jar, { ...query, email: 'not-an-email' });
    expect(await invalid.json()).toEqual({ status: 'ValidationError', message: 'Invalid email' });

    const created = await register(start.jar, { ...query, first_name: 'New' });
    expect(created.status).toBe(200);
    const { token } = (await created.json()) as { token: string };
    expect(token).toMatch(/^[\w-]{43}$/);
    // The one-time token is no session; its exchange asks for the confirmation, once.
    expect((await gql(server.app, '{ user { email } }', {}, bearer(token))).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    const refused = await exchange(token);
    expect(refused.errors?.[0]).toMatchObject({ message: CONFIRM_FIRST, extensions: { code: 'FORBIDDEN' } });
    expect((await exchange(token)).errors?.[0]?.message).toBe('The sign-in token is not valid, please try again');

    // The owner opens the confirmation mail: signed in, and back at the consent.
    const { token: link } = linkIn(await smtp.waitFor(email), '/auth/email');
    const confirmed = await gql<{ authEmailConfirm: { token: string } }>(
      server.app,
      'mutation($t: String!) { authEmailConfirm(token: $t) { token } }',
      { t: link },
    );
    const session = confirmed.data?.authEmailConfirm.token ?? '';
    expect((await gql(server.app, '{ user { email firstName } }', {}, bearer(session))).data).toEqual({
      user: { email, firstName: 'New' },
    });
    const callback = await grantAccess(server, start, session);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(await verifyBearer(server.services, tokens.access_token)).not.toBeNull();
  });

  it("creates the account whatever the length of the names the application gives, cut to SPEC's 32 characters", async () => {
    const config = await discover(server, app);
    const email = 'long-names@example.test';
    const start = await startAuthorization(config, server, { login_hint: email });
    const lastName = 'Wolfeschlegelsteinhausenbergerdorff';
    const created = await register(start.jar, {
      ...Object.fromEntries(start.consentUrl.searchParams),
      first_name: ' Hubert ',
      last_name: lastName,
    });
    expect(created.status).toBe(200);
    const user = await findUserByEmail(server.services.db, email);
    expect(user).toMatchObject({ firstName: 'Hubert', lastName: lastName.slice(0, 32) });
  });

  it('ends the grant of a session opened before the email was proven', async () => {
    const config = await discover(server, app);
    const email = 'granted-early@example.test';
    const start = await startAuthorization(config, server, { login_hint: email });
    await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
    const session = await unprovenSession(email);
    const callback = await grantAccess(server, start, session);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(await verifyBearer(server.services, tokens.access_token)).not.toBeNull();

    const { token: link } = linkIn(await smtp.waitFor(email), '/auth/email');
    const confirmed = await gql<{ authEmailConfirm: { token: string } }>(
      server.app,
      'mutation($t: String!) { authEmailConfirm(token: $t) { token } }',
      { t: link },
    );
    expect(confirmed.data?.authEmailConfirm.token).toBeTruthy();
    expect(await verifyBearer(server.services, tokens.access_token)).toBeNull();
    expect((await gql(server.app, '{ user { email } }', {}, bearer(session))).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('ends an email change asked for before the email was proven', async () => {
    const config = await discover(server, app);
    const email = 'prepared@example.test';
    const start = await startAuthorization(config, server, { login_hint: email });
    await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
    const session = await unprovenSession(email);
    // Whoever prepared the account asks to move it to an address of theirs, and keeps the link.
    const since = smtp.mails.length;
    await gql(
      server.app,
      'mutation($e: String) { userUpdate(email: $e) { email } }',
      { e: 'preparer@example.test' },
      bearer(session),
    );
    const { token: change } = linkIn(await smtp.waitFor('preparer@example.test', since), '/auth/email');

    const { token: link } = linkIn(await smtp.waitFor(email), '/auth/email');
    const confirmed = await gql(server.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', {
      t: link,
    });
    expect(confirmed.errors).toBeUndefined();
    const moved = await gql(server.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', {
      t: change,
    });
    expect(moved.errors?.[0]?.message).toBe('This confirmation link is expired or incorrect');
    const { rows } = await server.services.db.$client.query('select 1 from users where email = $1', [email]);
    expect(rows).toHaveLength(1);
  });

  it('drops a second factor set up before the email was proven: the owner is not locked out by it', async () => {
    const config = await discover(server, app);
    const email = 'factor@example.test';
    const start = await startAuthorization(config, server, { login_hint: email });
    await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
    const session = await unprovenSession(email);
    const pending = await gql<{ userPasscode: { secret: string } }>(
      server.app,
      '{ userPasscode { secret } }',
      {},
      bearer(session),
    );
    const secret = pending.data?.userPasscode.secret ?? '';
    const on = await gql<{ userPasscodeUpdate: { isActive: boolean } }>(
      server.app,
      'mutation($s: String!, $p: String!) { userPasscodeUpdate(secret: $s, passcode: $p) { isActive } }',
      { s: secret, p: totpCode(secret) },
      bearer(session),
    );
    expect(on.data?.userPasscodeUpdate.isActive).toBe(true);

    const { token: link } = linkIn(await smtp.waitFor(email), '/auth/email');
    const confirmed = await gql<{ authEmailConfirm: { token: string; issuer: string } }>(
      server.app,
      'mutation($t: String!) { authEmailConfirm(token: $t) { token issuer } }',
      { t: link },
    );
    expect(confirmed.data?.authEmailConfirm.issuer).toBe('user');
    const factor = await gql(
      server.app,
      '{ userPasscode { isActive recoveryCodesLeft } }',
      {},
      bearer(confirmed.data?.authEmailConfirm.token ?? ''),
    );
    expect(factor.data).toEqual({ userPasscode: { isActive: false, recoveryCodesLeft: 0 } });
  });

  it('answers a registered email as a new one: a token that signs nobody in, and a mail to the owner', async () => {
    const config = await discover(server, app);
    const answers = [];
    for (const email of ['taken@example.test', 'not-taken-yet@example.test']) {
      const start = await startAuthorization(config, server, { login_hint: email });
      const since = smtp.mails.length;
      const answer = await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
      const body = (await answer.json()) as { token: string };
      expect(body.token).toMatch(/^[\w-]{43}$/);
      const exchanged = await exchange(body.token);
      answers.push({ status: answer.status, keys: Object.keys(body), exchanged: exchanged.errors?.[0] });
      const mail = await smtp.waitFor(email, since);
      if (email === 'taken@example.test') expect(mail.subject).toBe('You already have a Signal Router account');
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.exchanged).toMatchObject({ message: CONFIRM_FIRST, extensions: { code: 'FORBIDDEN' } });
    const { rows } = await server.services.db.$client.query(
      `select email_confirmed_at is not null as confirmed from users where email = 'taken@example.test'`,
    );
    expect(rows).toEqual([{ confirmed: true }]);
  });
});
