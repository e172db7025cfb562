// Second factor: enrollment, activation, sign-in with the identity token, replay and rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  bearer,
  confirmedUser,
  gql,
  identityToken,
  SIGNIN,
  STRONG_PASSWORD,
  totpCode,
  userWithSecondFactor,
} from '../../../test/identity.ts';
import { RULES } from './rate-limit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PASSCODE = '{ userPasscode { secret uri qr isActive } }';
const UPDATE = `mutation($secret: String!, $passcode: String!) {
  userPasscodeUpdate(secret: $secret, passcode: $passcode) { isActive secret }
}`;
describe('second factor', () => {
  it('hands out a pending secret and activates it with one valid code', async () => {
    const email = 'totp@example.test';
    const token = (await confirmedUser(t, email)).token;
    const first = await gql<{ userPasscode: { secret: string; uri: string; qr: string; isActive: boolean } }>(
      t.app,
      PASSCODE,
      {},
      bearer(token),
    );
    const passcode = first.data?.userPasscode;
    expect(passcode?.isActive).toBe(false);
    const secret = passcode?.secret ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(passcode?.uri).toContain('otpauth://totp/Signal%20Router:totp%40example.test?');
    expect(passcode?.uri).toContain('issuer=Signal%20Router');
    expect(passcode?.qr).toBe(passcode?.uri);
    // The same pending secret until activation (a reload shows the same QR code).
    const again = await gql<{ userPasscode: { secret: string } }>(t.app, PASSCODE, {}, bearer(token));
    expect(again.data?.userPasscode.secret).toBe(secret);
    const { rows } = await t.services.db.$client.query('select passcode_secret from users where email = $1', [email]);
    expect(rows[0].passcode_secret).not.toContain(secret);

    const wrong = await gql(t.app, UPDATE, { secret, passcode: '000000' }, bearer(token));
    expect(wrong.errors?.[0]?.message).toBe('The verification code is not valid');
    const ok = await gql(t.app, UPDATE, { secret, passcode: totpCode(secret) }, bearer(token));
    expect(ok.data).toEqual({ userPasscodeUpdate: { isActive: true, secret: '' } });
    const active = await gql(t.app, PASSCODE, {}, bearer(token));
    expect(active.data).toEqual({ userPasscode: { secret: '', uri: '', qr: '', isActive: true } });
  });

  it('shows a seed being enrolled only to the session enrolling it: another session never learns the one activated', async () => {
    const email = 'totp-two-sessions@example.test';
    const { token: owner } = await confirmedUser(t, email);
    const signedIn = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: STRONG_PASSWORD },
    });
    const other = signedIn.data?.signin.token ?? '';
    const seed = async (token: string) =>
      (await gql<{ userPasscode: { secret: string } }>(t.app, PASSCODE, {}, bearer(token))).data?.userPasscode.secret;
    const first = (await seed(owner)) ?? '';
    // Another session (perhaps a taken one) asking meanwhile gets a seed of its own, not the owner's.
    const seen = await seed(other);
    expect(seen).toMatch(/^[A-Z2-7]{32}$/);
    expect(seen).not.toBe(first);
    // The owner's page is then outdated; a reload gives a fresh seed, which the owner activates.
    const outdated = await gql(t.app, UPDATE, { secret: first, passcode: totpCode(first) }, bearer(owner));
    expect(outdated.errors?.[0]?.message).toBe('This code setup is outdated, please reload the page');
    const fresh = (await seed(owner)) ?? '';
    expect([first, seen]).not.toContain(fresh);
    const on = await gql(t.app, UPDATE, { secret: fresh, passcode: totpCode(fresh) }, bearer(owner));
    expect(on.data).toEqual({ userPasscodeUpdate: { isActive: true, secret: '' } });
    // The other session ended with it; the activated seed signs in, the other one does not.
    expect((await gql(t.app, PASSCODE, {}, bearer(other))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const mfa = await identityToken(t, email);
    const wrongSeed = await gql(
      t.app,
      SIGNIN,
      { type: 'passcode', credentials: { passcode: totpCode(seen ?? '', 1) } },
      bearer(mfa),
    );
    expect(wrongSeed.errors?.[0]?.message).toBe('The verification code is not valid');
    const done = await gql<{ signin: { issuer: string } }>(
      t.app,
      SIGNIN,
      { type: 'passcode', credentials: { passcode: totpCode(fresh, 1) } },
      bearer(mfa),
    );
    expect(done.data?.signin.issuer).toBe('user');
  });

  it('requires the code after a password sign-in; the identity token opens nothing else', async () => {
    const email = 'totp-signin@example.test';
    const { secret } = await userWithSecondFactor(t, email);
    const mfa = await identityToken(t, email);
    const user = await gql(t.app, '{ user { email } }', {}, bearer(mfa));
    expect(user.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const tokens = await gql(t.app, 'mutation { userTokenCreate { key secret } }', {}, bearer(mfa));
    expect(tokens.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    // The enrollment code's step is burnt: the next step's code passes (window ±1), once.
    const next = totpCode(secret, 1);
    const done = await gql<{ signin: { token: string; issuer: string } }>(
      t.app,
      SIGNIN,
      { type: 'passcode', credentials: { passcode: ` ${next} ` } },
      bearer(mfa),
    );
    expect(done.data?.signin.issuer).toBe('user');
    const me = await gql(t.app, '{ user { email } }', {}, bearer(done.data?.signin.token ?? ''));
    expect(me.data).toEqual({ user: { email } });
    // The identity token was used up.
    const reuse = await gql(t.app, SIGNIN, { type: 'passcode', credentials: { passcode: next } }, bearer(mfa));
    expect(reuse.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a replayed code, and limits wrong codes to 5 per 5 minutes', async () => {
    const email = 'totp-limit@example.test';
    const { token, secret } = await userWithSecondFactor(t, email);
    const used = totpCode(secret, 1);
    const first = await gql<{ signin: { issuer: string } }>(
      t.app,
      SIGNIN,
      { type: 'passcode', credentials: { passcode: used } },
      bearer(await identityToken(t, email)),
    );
    expect(first.data?.signin.issuer).toBe('user');

    const mfa = bearer(await identityToken(t, email));
    const replay = await gql(t.app, SIGNIN, { type: 'passcode', credentials: { passcode: used } }, mfa);
    expect(replay.errors?.[0]).toMatchObject({ message: 'The verification code is not valid' });
    for (let i = 0; i < 4; i++) {
      const wrong = await gql(t.app, SIGNIN, { type: 'passcode', credentials: { passcode: '123456' } }, mfa);
      expect(wrong.errors?.[0]?.message).toBe('The verification code is not valid');
    }
    const limited = await gql(t.app, SIGNIN, { type: 'passcode', credentials: { passcode: totpCode(secret, 1) } }, mfa);
    expect(limited.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    // The factor can be turned off only with a valid code (here refused while limited).
    const off = await gql(t.app, UPDATE, { secret: '', passcode: totpCode(secret, 1) }, bearer(token));
    expect(off.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    await t.services.identity.limiter.reset(`passcode:${(await userId(email)) ?? 0}`, RULES.passcodeFailures);
    const blank = await gql(t.app, UPDATE, { secret: '', passcode: '' }, bearer(token));
    expect(blank.errors?.[0]?.message).toBe('Required');
    const offNow = await gql(t.app, UPDATE, { secret: '', passcode: '123456' }, bearer(token));
    expect(offNow.errors?.[0]?.message).toBe('The verification code is not valid');
  });

  it('holds the limit of wrong codes when they arrive all at once', async () => {
    const email = 'totp-burst@example.test';
    await userWithSecondFactor(t, email);
    const mfa = bearer(await identityToken(t, email));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        gql(t.app, SIGNIN, { type: 'passcode', credentials: { passcode: String(100000 + i) } }, mfa),
      ),
    );
    const judged = answers.filter((a) => a.errors?.[0]?.extensions?.code !== 'RATE_LIMITED');
    expect(judged.length).toBe(RULES.passcodeFailures.limit);
  });

  it('holds a daily limit of wrong codes: the short window passing again and again brings no fresh guesses', async () => {
    const email = 'totp-daily@example.test';
    const { secret } = await userWithSecondFactor(t, email);
    const id = (await userId(email)) ?? 0;
    const mfa = bearer(await identityToken(t, email));
    const attempt = (passcode: string) =>
      gql<{ signin: { issuer: string } }>(t.app, SIGNIN, { type: 'passcode', credentials: { passcode } }, mfa);
    const rounds = RULES.passcodeFailuresDaily.limit / RULES.passcodeFailures.limit;
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < RULES.passcodeFailures.limit; i++) {
        expect((await attempt(String(200000 + round * 10 + i))).errors?.[0]?.message).toBe(
          'The verification code is not valid',
        );
      }
      // Five minutes pass: the short window is empty again.
      await t.services.identity.limiter.reset(`passcode:${id}`, RULES.passcodeFailures);
    }
    const limited = await attempt(totpCode(secret, 1));
    expect(limited.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(limited.data).toBeNull();
  });

  it('bounds the guesses of whoever holds the password: the owner signing in between brings no fresh ones', async () => {
    const email = 'totp-interleaved@example.test';
    const { secret } = await userWithSecondFactor(t, email);
    const id = (await userId(email)) ?? 0;
    const attacker = bearer(await identityToken(t, email));
    const attempt = (passcode: string, headers: Record<string, string>) =>
      gql<{ signin: { issuer: string } }>(t.app, SIGNIN, { type: 'passcode', credentials: { passcode } }, headers);
    let judged = 0;
    let ownerIn = 0;
    // Within the hour: 4 guesses (under the 5 per 5 minutes), then the owner signs in, again and again.
    for (let round = 0; round < 7; round++) {
      for (let i = 0; i < RULES.passcodeFailures.limit - 1; i++) {
        const wrong = await attempt(String(300000 + round * 10 + i), attacker);
        if (wrong.errors?.[0]?.extensions?.code !== 'RATE_LIMITED') judged++;
      }
      await t.services.db.$client.query('update users set passcode_last_step = null where id = $1', [id]);
      const owner = await attempt(totpCode(secret), bearer(await identityToken(t, email)));
      if (owner.data?.signin.issuer === 'user') ownerIn++;
    }
    expect(judged).toBeLessThanOrEqual(RULES.passcodeFailuresDaily.limit);
    // The owner's own valid codes spend none of it: let in while the guesses last.
    expect(ownerIn).toBeGreaterThanOrEqual(RULES.passcodeFailuresDaily.limit / (RULES.passcodeFailures.limit - 1) - 1);
  });

  it('spends the identity token once when two valid codes race to complete the sign-in', async () => {
    const email = 'totp-race@example.test';
    const { secret } = await userWithSecondFactor(t, email);
    const id = (await userId(email)) ?? 0;
    // Two unused time steps (the previous and the current one): each code alone is valid.
    await t.services.db.$client.query('update users set passcode_last_step = null where id = $1', [id]);
    const mfa = bearer(await identityToken(t, email));
    const answers = await Promise.all(
      [totpCode(secret, -1), totpCode(secret)].map((passcode) =>
        gql<{ signin: { issuer: string } }>(t.app, SIGNIN, { type: 'passcode', credentials: { passcode } }, mfa),
      ),
    );
    expect(answers.filter((a) => a.data?.signin.issuer === 'user')).toHaveLength(1);
    expect(await liveSessions(id)).toBe(2); // the one of userWithSecondFactor, and this sign-in's

    const codes = (await userWithSecondFactor(t, 'totp-race-recovery@example.test')).recoveryCodes;
    const other = (await userId('totp-race-recovery@example.test')) ?? 0;
    const identity = bearer(await identityToken(t, 'totp-race-recovery@example.test'));
    const recovered = await Promise.all(
      codes
        .slice(0, 2)
        .map((code) =>
          gql<{ signin: { issuer: string } }>(t.app, SIGNIN, { type: 'recovery', credentials: { code } }, identity),
        ),
    );
    expect(recovered.filter((a) => a.data?.signin.issuer === 'user')).toHaveLength(1);
    expect(await liveSessions(other)).toBe(2);
  });
});

async function liveSessions(id: number): Promise<number> {
  const { rows } = await t.services.db.$client.query<{ n: number }>(
    "select count(*)::int as n from sessions where user_id = $1 and kind = 'session' and revoked_at is null",
    [id],
  );
  return rows[0]?.n ?? 0;
}

async function userId(email: string): Promise<number | undefined> {
  const { rows } = await t.services.db.$client.query<{ id: string }>('select id from users where email = $1', [email]);
  return rows[0] ? Number(rows[0].id) : undefined;
}
