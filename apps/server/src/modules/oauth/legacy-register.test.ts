// The legacy consent variant: an application naming the user's email (login_hint) gets the
// partner screen, which may create the account (POST /api/oauth/legacy-register); its one-time
// token signs in at /signin (issuer "id"), the user grants access, and once the owner proves
// the email everything done in the account before is revoked (pre-hijacking).
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

const exchange = (token: string) =>
  gql<{ signin: { token: string; issuer: string } }>(server.app, SIGNIN, {
    type: 'token',
    credentials: { issuer: 'id', token },
  });

describe('legacy consent and registration', () => {
  it('creates the named account, signs it in once, and its grant ends when the email is proven', async () => {
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
    // The one-time token is no session, and is spent by its exchange.
    expect((await gql(server.app, '{ user { email } }', {}, bearer(token))).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    const signedIn = await exchange(token);
    expect(signedIn.data?.signin.issuer).toBe('user');
    expect((await exchange(token)).errors?.[0]?.message).toBe('The sign-in token is not valid, please try again');
    const session = signedIn.data?.signin.token ?? '';
    expect((await gql(server.app, '{ user { email firstName } }', {}, bearer(session))).data).toEqual({
      user: { email, firstName: 'New' },
    });

    const callback = await grantAccess(server, start, session);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(await verifyBearer(server.services, tokens.access_token)).not.toBeNull();

    // The owner opens the confirmation mail: what was done before the proof is revoked.
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
    expect(
      (await gql(server.app, '{ user { email } }', {}, bearer(confirmed.data?.authEmailConfirm.token ?? ''))).data,
    ).toEqual({ user: { email } });
  });

  it('ends an email change asked for before the email was proven', async () => {
    const config = await discover(server, app);
    const email = 'prepared@example.test';
    const start = await startAuthorization(config, server, { login_hint: email });
    const created = await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
    const { token } = (await created.json()) as { token: string };
    const session = (await exchange(token)).data?.signin.token ?? '';
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
    const created = await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
    const { token } = (await created.json()) as { token: string };
    const session = (await exchange(token)).data?.signin.token ?? '';
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

  it('refuses a registered email', async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server, { login_hint: 'taken@example.test' });
    const answer = await register(start.jar, Object.fromEntries(start.consentUrl.searchParams));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ status: 'ValidationError', message: 'This email is already registered' });
  });
});
