// Recovery codes: ten shown once at activation, kept hashed, each signs in once in place of the
// authenticator code (the result carries the email: the recall screen), new ones replace old
// ones, and turning the factor off with a recovery code drops them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  bearer,
  gql,
  identityToken,
  SIGNIN,
  STRONG_PASSWORD,
  totpCode,
  userWithSecondFactor,
} from '../../../test/identity.ts';
import { untilLockWaiters } from '../../../test/lock-waits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LEFT = '{ userPasscode { isActive recoveryCodes recoveryCodesLeft } }';
const RENEW = 'mutation($passcode: String!) { userRecoveryCodesCreate(passcode: $passcode) }';
const recover = (identity: string, value: string) =>
  gql<{ signin: { token: string; issuer: string; email: string | null } }>(
    t.app,
    SIGNIN,
    { type: 'recovery', credentials: { code: value } },
    bearer(identity),
  );

describe('recovery codes', () => {
  it('are ten, shown once at activation and stored hashed', async () => {
    const { token: session, recoveryCodes: codes } = await userWithSecondFactor(t, 'recovery@example.test');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
    expect((await gql(t.app, LEFT, {}, bearer(session))).data).toEqual({
      userPasscode: { isActive: true, recoveryCodes: [], recoveryCodesLeft: 10 },
    });
    const { rows } = await t.services.db.$client.query<{ code_hash: string }>('select code_hash from recovery_codes');
    const stored = rows.map((r) => r.code_hash).join(' ');
    for (const c of codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replaceAll('-', ''));
    }
  });

  it('sign in once each in place of the authenticator code, with the email for the recall screen', async () => {
    const email = 'recovery-signin@example.test';
    const { token: session, secret, recoveryCodes: codes } = await userWithSecondFactor(t, email);
    const anonymous = await recover('', codes[0] ?? '');
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const identity = await identityToken(t, email);
    const wrong = await recover(identity, 'aaaa-bbbb-cccc');
    expect(wrong.errors?.[0]).toMatchObject({ message: 'The recovery code is not valid' });
    const malformed = await recover(identity, '12');
    expect(malformed.errors?.[0]).toMatchObject({
      message: 'The recovery code is not valid',
      extensions: { field: 'credentials.code' },
    });

    // Typed in capitals and without dashes, it is the same code.
    const ok = await recover(identity, (codes[0] ?? '').replaceAll('-', '').toUpperCase());
    expect(ok.data?.signin).toMatchObject({ issuer: 'user', email });
    expect((await gql(t.app, '{ user { email } }', {}, bearer(ok.data?.signin.token ?? ''))).data).toEqual({
      user: { email },
    });
    // The identity token was spent, and so was the code.
    expect((await recover(identity, codes[1] ?? '')).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const again = await recover(await identityToken(t, email), codes[0] ?? '');
    expect(again.errors?.[0]?.message).toBe('The recovery code is not valid');
    expect((await gql(t.app, LEFT, {}, bearer(session))).data).toMatchObject({
      userPasscode: { recoveryCodesLeft: 9 },
    });

    // An ordinary code sign-in carries no email.
    const passcode = await gql<{ signin: { email: string | null } }>(
      t.app,
      SIGNIN,
      { type: 'passcode', credentials: { passcode: totpCode(secret, 1) } },
      bearer(await identityToken(t, email)),
    );
    expect(passcode.data?.signin.email).toBeNull();
  });

  it('are replaced by new ones with a current code; the old ones stop working', async () => {
    const email = 'recovery-renew@example.test';
    const { token: session, recoveryCodes: codes } = await userWithSecondFactor(t, email);
    expect((await gql(t.app, RENEW, { passcode: '123456' })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await gql(t.app, RENEW, { passcode: '000000' }, bearer(session))).errors?.[0]?.message).toBe(
      'The verification code is not valid',
    );
    const renewed = await gql<{ userRecoveryCodesCreate: string[] }>(
      t.app,
      RENEW,
      { passcode: codes[2] ?? '' },
      bearer(session),
    );
    const fresh = renewed.data?.userRecoveryCodesCreate ?? [];
    expect(fresh).toHaveLength(10);
    expect((await recover(await identityToken(t, email), codes[3] ?? '')).errors?.[0]?.message).toBe(
      'The recovery code is not valid',
    );
    expect((await recover(await identityToken(t, email), fresh[0] ?? '')).data?.signin.issuer).toBe('user');
  });

  it('of two renewals at once, one wins and the codes it shows are the ones that work', async () => {
    const email = 'recovery-renew-race@example.test';
    const { id, token: session, recoveryCodes: codes } = await userWithSecondFactor(t, email);
    // The old codes are held, so both renewals are proven and waiting before either replaces them.
    const holder = await t.services.db.$client.connect();
    await holder.query('begin');
    await holder.query('select id from recovery_codes where user_id = $1 for update', [id]);
    const renew = (passcode: string) =>
      gql<{ userRecoveryCodesCreate: string[] }>(t.app, RENEW, { passcode }, bearer(session));
    const answers = Promise.all([renew(codes[4] ?? ''), renew(codes[5] ?? '')]);
    await untilLockWaiters(t.services.db.$client, 2);
    await holder.query('rollback');
    holder.release();

    const done = await answers;
    const won = done.flatMap((a) => a.data?.userRecoveryCodesCreate ?? []);
    expect(won).toHaveLength(10);
    expect(done.map((a) => a.errors?.[0]?.message).filter(Boolean)).toEqual([
      'Your recovery codes were just replaced elsewhere; reload the page to see them',
    ]);
    expect((await gql(t.app, LEFT, {}, bearer(session))).data).toMatchObject({
      userPasscode: { recoveryCodesLeft: 10 },
    });
    expect((await recover(await identityToken(t, email), won[0] ?? '')).data?.signin.issuer).toBe('user');
  });

  it('turn the factor off in place of the authenticator code, and go with it', async () => {
    const email = 'recovery-off@example.test';
    const { id, token: session, recoveryCodes: codes } = await userWithSecondFactor(t, email);
    const off = await gql(
      t.app,
      'mutation($passcode: String!) { userPasscodeUpdate(secret: "", passcode: $passcode) { isActive recoveryCodesLeft } }',
      { passcode: codes[1] ?? '' },
      bearer(session),
    );
    expect(off.data).toEqual({ userPasscodeUpdate: { isActive: false, recoveryCodesLeft: 0 } });
    const { rows } = await t.services.db.$client.query('select 1 from recovery_codes where user_id = $1', [id]);
    expect(rows).toEqual([]);
    const signin = await gql<{ signin: { issuer: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: STRONG_PASSWORD },
    });
    expect(signin.data?.signin.issuer).toBe('user');
  });

  it('holds the limit of wrong codes when they arrive all at once', async () => {
    const email = 'recovery-burst@example.test';
    await userWithSecondFactor(t, email);
    const identity = await identityToken(t, email);
    const letters = 'abcdefghjkmnpqrstuvwxyz23456789';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => recover(identity, `aaaa-aaaa-aa${letters[i] ?? 'a'}a`)),
    );
    const judged = answers.filter((a) => a.errors?.[0]?.extensions?.code !== 'RATE_LIMITED');
    expect(judged.length).toBe(5);
  });
});
