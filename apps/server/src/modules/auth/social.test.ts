// Google and Apple sign-in against a local JWKS: good, wrong audience, expired, wrong signature,
// and the nonce binding the ID token to the browser that asked for it (once).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN } from '../../../test/identity.ts';
import { browserNonce, type LocalJwks, startLocalJwks } from '../../../test/jwks.ts';
import { NOT_VOUCHED, NOT_VOUCHED_SIGNUP, notVouched } from './signup.ts';
import { NONCE_MISSING, NONCE_SPENT } from './social.ts';

let t: TestApp;
let jwks: LocalJwks;
beforeAll(async () => {
  jwks = await startLocalJwks();
  t = await startTestApp({
    env: {
      GOOGLE_CLIENT_ID: 'google-client.apps.test',
      GOOGLE_JWKS_URL: jwks.url,
      APPLE_CLIENT_ID: 'com.example.router',
      APPLE_JWKS_URL: jwks.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await jwks.close();
});

/** The browser's nonce of this test file's sign-ins: each test signs tokens for a fresh one. */
let nonce = browserNonce();

const google = (claims: Record<string, unknown> = {}, options?: { foreign?: boolean; expiresIn?: number }) =>
  jwks.sign(
    {
      iss: 'https://accounts.google.com',
      aud: 'google-client.apps.test',
      email: 'Grace@Example.test',
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
      nonce: nonce.claim,
      ...claims,
    },
    options,
  );

const socialSignin = async (issuer: string, token: string, metadata?: unknown, value: string | null = nonce.value) =>
  gql<{ signin: { token: string; issuer: string } }>(t.app, SIGNIN, {
    type: 'token',
    credentials: { issuer, token, ...(value === null ? {} : { nonce: value }) },
    metadata,
  });

beforeEach(() => {
  nonce = browserNonce();
});

describe('social sign-in', () => {
  it('tells the web app which providers are configured', async () => {
    const res = await gql(t.app, '{ authProviders { google apple googleClientId appleClientId } }');
    expect(res.data).toEqual({
      authProviders: {
        google: true,
        apple: true,
        googleClientId: 'google-client.apps.test',
        appleClientId: 'com.example.router',
      },
    });
  });

  it('creates a confirmed account on the first Google sign-in and signs in after', async () => {
    // An installation without an administrator yet, whatever ran before: the account's
    // confirmation makes it the first administrator (group 5), which only a confirmed one becomes.
    await t.services.db.$client.query(`update users set "group" = "group" & ~1 where "group" & 1 = 1`);
    const users = async () =>
      (await t.services.db.$client.query<{ n: number }>('select count(*)::int as n from users')).rows[0]?.n ?? 0;
    const before = await users();
    // That administrator's mailbox is proven: not by a Google account Google does not vouch for
    // (made once with the address, perhaps not its holder's now), as an email and password would.
    const unvouched = await socialSignin('google', await google({ email: 'someone@example.test' }));
    expect(unvouched.errors?.[0]).toMatchObject({ message: NOT_VOUCHED_SIGNUP, extensions: { code: 'FORBIDDEN' } });
    expect(await users()).toBe(before);
    nonce = browserNonce();
    const first = await socialSignin('google', await google({ hd: 'example.test' }));
    expect(first.data?.signin.issuer).toBe('user');
    const me = await gql(
      t.app,
      '{ user { email firstName lastName group } }',
      {},
      bearer(first.data?.signin.token ?? ''),
    );
    expect(me.data).toEqual({
      user: { email: 'grace@example.test', firstName: 'Grace', lastName: 'Hopper', group: 5 },
    });
    nonce = browserNonce();
    const second = await socialSignin('google', await google({ iss: 'accounts.google.com', hd: 'example.test' }));
    expect(second.data?.signin.issuer).toBe('user');
    expect(await users()).toBe(before + 1);
  });

  it('takes the name from metadata for Apple', async () => {
    // Not the first confirmed account, so a customer (group 4).
    await confirmedUser(t, 'first@example.test');
    const token = await jwks.sign({
      iss: 'https://appleid.apple.com',
      aud: 'com.example.router',
      email: 'tim@privaterelay.example',
      email_verified: 'true',
      nonce: nonce.claim,
    });
    const res = await socialSignin('apple', token, { firstName: 'Tim', lastName: 'Cook' });
    const me = await gql(t.app, '{ user { firstName lastName group } }', {}, bearer(res.data?.signin.token ?? ''));
    expect(me.data).toEqual({ user: { firstName: 'Tim', lastName: 'Cook', group: 4 } });
  });

  it("keeps an Apple user's first name when the last is longer than 32 characters, cut as Google's are", async () => {
    const token = await jwks.sign({
      iss: 'https://appleid.apple.com',
      aud: 'com.example.router',
      email: 'long.name@privaterelay.example',
      email_verified: 'true',
      nonce: nonce.claim,
    });
    const lastName = ` ${'Mountbatten-Windsor'.repeat(3)} `;
    const res = await socialSignin('apple', token, { firstName: 'Louise', lastName });
    const me = await gql(t.app, '{ user { firstName lastName } }', {}, bearer(res.data?.signin.token ?? ''));
    expect(me.data).toEqual({ user: { firstName: 'Louise', lastName: lastName.trim().slice(0, 32) } });
  });

  it('refuses a wrong audience, an expired token, a foreign signature, a wrong issuer and unverified email', async () => {
    const cases = [
      await google({ aud: 'someone-else' }),
      await google({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      await google({}, { foreign: true }),
      await google({ iss: 'https://appleid.apple.com' }),
      'not.a.token',
    ];
    for (const token of cases) {
      const res = await socialSignin('google', token);
      expect(res.data).toBeNull();
      expect(res.errors?.[0]).toMatchObject({
        message: 'The sign-in token is not valid, please try again',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    const unverified = await socialSignin('google', await google({ email_verified: false, email: 'x@example.test' }));
    expect(unverified.errors?.[0]?.message).toBe('Your email is not verified with this provider');
    // An Apple token is not a Google token.
    const apple = await socialSignin('apple', await google());
    expect(apple.errors?.[0]?.message).toBe('The sign-in token is not valid, please try again');
  });

  it("signs up with Apple whatever the length of the name Apple gave, cut to SPEC's 32 characters", async () => {
    const token = await jwks.sign({
      iss: 'https://appleid.apple.com',
      aud: 'com.example.router',
      email: 'long.signup@privaterelay.example',
      email_verified: 'true',
      nonce: nonce.claim,
    });
    const firstName = 'Maria Guadalupe Concepción Esperanza';
    const res = await gql<{ signup: { firstName: string; lastName: string } }>(
      t.app,
      `mutation($c: JSON!, $f: String, $l: String) {
        signup(type: "token", credentials: $c, firstName: $f, lastName: $l) { firstName lastName }
      }`,
      { c: { issuer: 'apple', token, nonce: nonce.value }, f: firstName, l: 'Ruiz' },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.signup).toEqual({ firstName: firstName.slice(0, 32).trim(), lastName: 'Ruiz' });
  });

  it('signs up with a token and answers with the user', async () => {
    const token = await google({ email: 'new@example.test', given_name: 'New' });
    const res = await gql<{ signup: { email: string; firstName: string } }>(
      t.app,
      `mutation($c: JSON!) { signup(type: "token", credentials: $c, promotionCode: "A, B") { email firstName } }`,
      { c: { issuer: 'google', token, nonce: nonce.value } },
    );
    expect(res.data).toEqual({ signup: { email: 'new@example.test', firstName: 'New' } });
    // The sign-in that follows a token sign-up (SPEC §4) takes the same token.
    expect((await socialSignin('google', token)).data?.signin.issuer).toBe('user');
    const { rows } = await t.services.db.$client.query(
      `select a.metadata from accounts a join users u on u.id = a.user_id where u.email = 'new@example.test'`,
    );
    expect(rows[0].metadata.signup).toEqual({ promotionCodes: ['A', 'B'], client: expect.any(String) });
  });

  it('refuses an ID token not bound to this browser: no nonce, another nonce, or one already used', async () => {
    const token = await google({ email: 'bound@example.test' });
    const missing = await socialSignin('google', token, undefined, null);
    expect(missing.errors?.[0]).toMatchObject({ message: NONCE_MISSING, extensions: { code: 'BAD_USER_INPUT' } });
    const other = await socialSignin('google', token, undefined, browserNonce().value);
    expect(other.errors?.[0]?.message).toBe('The sign-in token is not valid, please try again');
    const unbound = await socialSignin('google', await google({ nonce: undefined, email: 'bound@example.test' }));
    expect(unbound.errors?.[0]?.message).toBe('The sign-in token is not valid, please try again');
    // The browser's own sign-in passes once; the captured request sent again signs nobody in.
    expect((await socialSignin('google', token)).data?.signin.issuer).toBe('user');
    const replayed = await socialSignin('google', token);
    expect(replayed.data).toBeNull();
    expect(replayed.errors?.[0]).toMatchObject({ message: NONCE_SPENT, extensions: { code: 'BAD_USER_INPUT' } });
    const signup = await gql(t.app, `mutation($c: JSON!) { signup(type: "token", credentials: $c) { email } }`, {
      c: { issuer: 'google', token },
    });
    expect(signup.errors?.[0]?.message).toBe(NONCE_MISSING);
  });

  it('opens an account with a password only through a Google identity Google is authoritative for', async () => {
    await confirmedUser(t, 'pat@work.example');
    // A Google account made once with this work address: verified then, perhaps not its owner now.
    const foreign = await socialSignin('google', await google({ email: 'pat@work.example' }));
    expect(foreign.data).toBeNull();
    expect(foreign.errors?.[0]).toMatchObject({ message: NOT_VOUCHED, extensions: { code: 'FORBIDDEN' } });
    // The address's Google Workspace account (hd) is authoritative, as Gmail is.
    nonce = browserNonce();
    const workspace = await socialSignin('google', await google({ email: 'pat@work.example', hd: 'work.example' }));
    expect(workspace.data?.signin.issuer).toBe('user');
    await confirmedUser(t, 'pat.home@gmail.com');
    nonce = browserNonce();
    const gmail = await socialSignin('google', await google({ email: 'Pat.Home@gmail.com' }));
    expect(gmail.data?.signin.issuer).toBe('user');
  });

  it('opens an account with a password, or makes an administrator, only through an Apple mailbox Apple is authoritative for', async () => {
    const apple = (email: string) =>
      jwks.sign({
        iss: 'https://appleid.apple.com',
        aud: 'com.example.router',
        email,
        email_verified: 'true',
        nonce: nonce.claim,
      });
    await confirmedUser(t, 'lee@work.example');
    // An Apple ID made once with this work address: verified then, perhaps not its owner now.
    const foreign = await socialSignin('apple', await apple('lee@work.example'));
    expect(foreign.data).toBeNull();
    expect(foreign.errors?.[0]).toMatchObject({
      message: notVouched('apple', false),
      extensions: { code: 'FORBIDDEN' },
    });
    // Nor does it make the installation's first administrator.
    await t.services.db.$client.query(`update users set "group" = "group" & ~1 where "group" & 1 = 1`);
    nonce = browserNonce();
    const admin = await socialSignin('apple', await apple('boss@work.example'));
    expect(admin.errors?.[0]).toMatchObject({ message: notVouched('apple', true), extensions: { code: 'FORBIDDEN' } });
    const { rows } = await t.services.db.$client.query(`select 1 from users where email = 'boss@work.example'`);
    expect(rows).toHaveLength(0);
    // Apple's own mailboxes (iCloud, the private relay) are Apple's to vouch for.
    await confirmedUser(t, 'lee@icloud.com');
    nonce = browserNonce();
    const icloud = await socialSignin('apple', await apple('Lee@iCloud.com'));
    expect(icloud.data?.signin.issuer).toBe('user');
  });
});
