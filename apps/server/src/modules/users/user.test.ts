// Profile updates, email change by emailed link, and the race-free first administrator (the
// first account to confirm its email).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  bearer,
  confirmedUser,
  gql,
  SIGNIN,
  SIGNUP,
  STRONG_PASSWORD,
  userWithSecondFactor,
} from '../../../test/identity.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';

let t: TestApp;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const UPDATE = `mutation($email: String, $firstName: String, $lastName: String) {
  userUpdate(email: $email, firstName: $firstName, lastName: $lastName) { email firstName lastName }
}`;

describe('users', () => {
  it('makes exactly one administrator when the first confirmations race, and none at sign-up', async () => {
    const emails = ['r1@example.test', 'r2@example.test', 'r3@example.test'];
    // An installation with no administrator yet: the accounts other cases confirmed step down.
    await t.services.db.$client.query(`update users set "group" = "group" & ~1`);
    const since = smtp.mails.length;
    const signups = await Promise.all(
      emails.map((email) =>
        gql<{ signup: { group: number } }>(t.app, SIGNUP, { credentials: { email, password: STRONG_PASSWORD } }),
      ),
    );
    expect(signups.map((r) => r.data?.signup.group)).toEqual([4, 4, 4]);
    const tokens = await Promise.all(
      emails.map(async (email) => linkIn(await smtp.waitFor(email, since), '/auth/email').token),
    );
    const confirmed = await Promise.all(
      tokens.map((token) =>
        gql(t.app, 'mutation($token: String!) { authEmailConfirm(token: $token) { token } }', { token }),
      ),
    );
    expect(confirmed.map((r) => r.errors)).toEqual([undefined, undefined, undefined]);
    const { rows } = await t.services.db.$client.query<{ group: number }>(
      `select "group" from users where email = any($1) order by "group"`,
      [emails],
    );
    expect(rows.map((r) => r.group)).toEqual([4, 4, 5]);
  });

  it('updates names, and changes the email only through the link sent to the new address', async () => {
    const { token } = await confirmedUser(t, 'old@example.test');
    const names = await gql(t.app, UPDATE, { firstName: ' Lin ', lastName: 'x'.repeat(33) }, bearer(token));
    expect(names.errors?.[0]?.extensions?.field).toBe('lastName');
    const ok = await gql(t.app, UPDATE, { firstName: ' Lin ', lastName: '' }, bearer(token));
    expect(ok.data).toEqual({ userUpdate: { email: 'old@example.test', firstName: 'Lin', lastName: null } });

    const since = smtp.mails.length;
    const change = await gql(t.app, UPDATE, { email: 'New@Example.test' }, bearer(token));
    expect(change.data).toEqual({ userUpdate: { email: 'old@example.test', firstName: 'Lin', lastName: null } });
    const { token: link } = linkIn(await smtp.waitFor('new@example.test', since), '/auth/email');
    const confirm = await gql<{ authEmailConfirm: { token: string } }>(
      t.app,
      'mutation($t: String!) { authEmailConfirm(token: $t) { token } }',
      { t: link },
    );
    const me = await gql(t.app, '{ user { email } }', {}, bearer(confirm.data?.authEmailConfirm.token ?? ''));
    expect(me.data).toEqual({ user: { email: 'new@example.test' } });
  });

  it('ends a pending email change when the password changes: the link an intruder asked for no longer works', async () => {
    const email = 'held@example.test';
    const { token: intruder } = await confirmedUser(t, email);
    const owner = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: STRONG_PASSWORD },
    });
    const since = smtp.mails.length;
    await gql(t.app, UPDATE, { email: 'intruder@example.test' }, bearer(intruder));
    const { token: link } = linkIn(await smtp.waitFor('intruder@example.test', since), '/auth/email');

    const changed = await gql(
      t.app,
      `mutation($p: String!, $n: String!) { userPasswordUpdate(password: $p, newPassword: $n, newPassword2: $n) }`,
      { p: STRONG_PASSWORD, n: 'Harbor-Velvet-Orchid-77?' },
      bearer(owner.data?.signin.token ?? ''),
    );
    expect(changed.data).toEqual({ userPasswordUpdate: true });
    const confirm = await gql(t.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', { t: link });
    expect(confirm.errors?.[0]?.message).toBe('This confirmation link is expired or incorrect');
    const { rows } = await t.services.db.$client.query(`select 1 from users where email = $1`, [email]);
    expect(rows).toHaveLength(1);
  });

  it('tells the old address when a change of email is asked for, so the owner learns of it before it takes effect', async () => {
    const { token } = await confirmedUser(t, 'kept@example.test');
    const since = smtp.mails.length;
    const change = await gql(t.app, UPDATE, { email: 'taker@example.test' }, bearer(token));
    expect(change.errors).toBeUndefined();
    const notice = await smtp.waitFor('kept@example.test', since);
    expect(notice.subject).toBe('The email of your Signal Router account is being changed');
    expect(notice.text).toContain('/auth/password?token=');
    // The confirmation link goes only to the new address, never to the old one.
    expect(notice.text).not.toContain('/auth/email');
    await smtp.waitFor('taker@example.test', since);
  });

  it('ends the links sent to the old address once the new one is confirmed', async () => {
    const { token } = await confirmedUser(t, 'moving@example.test');
    const since = smtp.mails.length;
    await gql(t.app, 'mutation($e: String!) { authPasswordResetRequest(email: $e) }', { e: 'moving@example.test' });
    await t.services.identity.settled();
    const { token: reset } = linkIn(await smtp.waitFor('moving@example.test', since), '/auth/password');
    await gql(t.app, UPDATE, { email: 'moved@example.test' }, bearer(token));
    const { token: link } = linkIn(await smtp.waitFor('moved@example.test', since), '/auth/email');
    const confirm = await gql(t.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', { t: link });
    expect(confirm.errors).toBeUndefined();

    const password = 'Harbor-Velvet-Orchid-77?';
    const old = await gql(
      t.app,
      'mutation($t: String!, $p: String!) { authPasswordReset(token: $t, password: $p, password2: $p) }',
      { t: reset, p: password },
    );
    expect(old.errors?.[0]?.message).toBe('This password reset link is expired or was already used');
  });

  it('ends the other confirmation links once the email is confirmed: none signs in later', async () => {
    const email = 'twice@example.test';
    const since = smtp.mails.length;
    await gql(t.app, SIGNUP, { credentials: { email, password: STRONG_PASSWORD } });
    const first = linkIn(await smtp.waitFor(email, since), '/auth/email').token;
    const resent = smtp.mails.length;
    const refused = await gql(t.app, SIGNIN, { type: 'password', credentials: { email, password: STRONG_PASSWORD } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const second = linkIn(await smtp.waitFor(email, resent), '/auth/email').token;
    const CONFIRM = 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }';
    expect((await gql(t.app, CONFIRM, { t: second })).errors).toBeUndefined();
    const later = await gql(t.app, CONFIRM, { t: first });
    expect(later.errors?.[0]?.message).toBe('This confirmation link is expired or incorrect');
  });

  it('answers an address another account holds as a free one: no link, its owner is told, the old address gets the same notice', async () => {
    const { token } = await confirmedUser(t, 'asker@example.test');
    await confirmedUser(t, 'holder@example.test');
    const since = smtp.mails.length;
    const free = await gql(t.app, UPDATE, { email: 'free-address@example.test', firstName: 'Ann' }, bearer(token));
    const freeNotice = await smtp.waitFor('asker@example.test', since);
    const pending = linkIn(await smtp.waitFor('free-address@example.test', since), '/auth/email').token;
    const between = smtp.mails.length;
    const taken = await gql(t.app, UPDATE, { email: 'Holder@example.test', firstName: 'Ann' }, bearer(token));
    expect(taken).toEqual(free);
    expect(taken.data).toEqual({ userUpdate: { email: 'asker@example.test', firstName: 'Ann', lastName: null } });
    const notice = await smtp.waitFor('asker@example.test', between);
    expect(notice.subject).toBe(freeNotice.subject);
    const told = await smtp.waitFor('holder@example.test', between);
    expect(told.subject).toBe('Your address was given for another Signal Router account');
    expect(told.text).not.toContain('token=');
    // The latest request counts: the earlier change link ended, as a later free address ends it.
    const late = await gql(t.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', { t: pending });
    expect(late.errors?.[0]?.message).toBe('This confirmation link is expired or incorrect');
    // At most one such mail to the holder in 5 minutes.
    const again = smtp.mails.length;
    await gql(t.app, UPDATE, { email: 'holder@example.test' }, bearer(token));
    await smtp.waitFor('asker@example.test', again);
    expect(smtp.mails.slice(again).some((m) => m.to.includes('holder@example.test'))).toBe(false);
    const { rows } = await t.services.db.$client.query(
      `select email from users where email like '%holder%' or email like 'asker%' order by email`,
    );
    expect(rows).toEqual([{ email: 'asker@example.test' }, { email: 'holder@example.test' }]);
  });

  it('tells the user the pending email after a reload, a held address as a free one, until its link is opened', async () => {
    const { token } = await confirmedUser(t, 'waiting@example.test');
    await confirmedUser(t, 'held-elsewhere@example.test');
    const ME = '{ user { email pendingEmail } }';
    expect((await gql(t.app, ME, {}, bearer(token))).data).toEqual({
      user: { email: 'waiting@example.test', pendingEmail: null },
    });
    const taken = await gql(
      t.app,
      UPDATE.replace('lastName }', 'lastName pendingEmail }'),
      { email: 'Held-Elsewhere@example.test' },
      bearer(token),
    );
    expect(taken.data?.userUpdate).toMatchObject({
      email: 'waiting@example.test',
      pendingEmail: 'held-elsewhere@example.test',
    });
    expect((await gql(t.app, ME, {}, bearer(token))).data).toEqual({
      user: { email: 'waiting@example.test', pendingEmail: 'held-elsewhere@example.test' },
    });
    const since = smtp.mails.length;
    await gql(t.app, UPDATE, { email: 'arrived@example.test' }, bearer(token));
    expect((await gql(t.app, ME, {}, bearer(token))).data).toEqual({
      user: { email: 'waiting@example.test', pendingEmail: 'arrived@example.test' },
    });
    const { token: link } = linkIn(await smtp.waitFor('arrived@example.test', since), '/auth/email');
    const confirm = await gql<{ authEmailConfirm: { token: string } }>(
      t.app,
      'mutation($t: String!) { authEmailConfirm(token: $t) { token } }',
      { t: link },
    );
    expect((await gql(t.app, ME, {}, bearer(confirm.data?.authEmailConfirm.token ?? ''))).data).toEqual({
      user: { email: 'arrived@example.test', pendingEmail: null },
    });
  });

  it('changes nothing when the new email is refused, not even the names sent with it', async () => {
    const user = await confirmedUser(t, 'names-stay@example.test');
    const refused = await gql(
      t.app,
      UPDATE,
      { email: 'not-an-address', firstName: 'Renamed', lastName: 'Anyway' },
      bearer(user.token),
    );
    expect(refused.errors?.[0]?.extensions?.field).toBe('email');
    const now = await gql<{ user: { firstName: string | null; lastName: string | null } }>(
      t.app,
      '{ user { firstName lastName } }',
      {},
      bearer(user.token),
    );
    expect(now.data?.user).toEqual({ firstName: null, lastName: null });
  });

  it("the old address's notice brings the account back after a taken session moved it: address, password, no factor, no taker", async () => {
    // The taker turned the second factor on too (its own notice's link is ended by the move).
    const { token: taken } = await userWithSecondFactor(t, 'owner-back@example.test');
    const since = smtp.mails.length;
    await gql(t.app, UPDATE, { email: 'taker-moved@example.test' }, bearer(taken));
    const notice = await smtp.waitFor('owner-back@example.test', since);
    const { token: undo } = linkIn(notice, '/auth/password');
    const { token: confirm } = linkIn(await smtp.waitFor('taker-moved@example.test', since), '/auth/email');
    const CONFIRM = 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }';
    const moved = await gql<{ authEmailConfirm: { token: string } }>(t.app, CONFIRM, { t: confirm });
    expect(moved.errors).toBeUndefined();
    // The taker's address speaks for the account now: its reset links go there.
    const beforeTakerReset = smtp.mails.length;
    await gql(t.app, 'mutation($e: String!) { authPasswordResetRequest(email: $e) }', {
      e: 'taker-moved@example.test',
    });
    await t.services.identity.settled();
    const { token: takersReset } = linkIn(
      await smtp.waitFor('taker-moved@example.test', beforeTakerReset),
      '/auth/password',
    );

    const password = 'Orchid-Lantern-Quarry-58!';
    const RESET = 'mutation($t: String!, $p: String!) { authPasswordReset(token: $t, password: $p, password2: $p) }';
    const back = await gql(t.app, RESET, { t: undo, p: password });
    expect(back.errors).toBeUndefined();
    const signin = await gql<{ signin: { token: string; issuer: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'owner-back@example.test', password },
    });
    expect(signin.errors).toBeUndefined();
    expect(signin.data?.signin.issuer).not.toBe('identity');
    const me = await gql<{ user: { email: string } }>(
      t.app,
      '{ user { email } }',
      {},
      bearer(signin.data?.signin.token ?? ''),
    );
    expect(me.data?.user.email).toBe('owner-back@example.test');
    for (const gone of [taken, moved.data?.authEmailConfirm.token ?? '']) {
      const answer = await gql(t.app, '{ user { email } }', {}, bearer(gone));
      expect(answer.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    // The reset link sent to the taker's address ended with the undo.
    const late = await gql(t.app, RESET, { t: takersReset, p: 'Another-Strong-Pass-99!' });
    expect(late.errors?.[0]?.message).toBe('This password reset link is expired or was already used');
  });

  it("the old address's notice asks the code of a factor on since long before the change: the old mailbox alone opens nothing", async () => {
    const owner = await userWithSecondFactor(t, 'long-factor@example.test');
    // On for a month before the change: the owner's (a taker's is newer), its own undo link long ended.
    await t.services.db.$client.query(
      `update users set passcode_active_at = now() - interval '30 days' where email = 'long-factor@example.test'`,
    );
    const since = smtp.mails.length;
    await gql(t.app, UPDATE, { email: 'long-factor-moved@example.test' }, bearer(owner.token));
    const { token: undo } = linkIn(await smtp.waitFor('long-factor@example.test', since), '/auth/password');
    const password = 'Orchid-Lantern-Quarry-58!';
    const RESET = `mutation($t: String!, $p: String!, $c: String) {
      authPasswordReset(token: $t, password: $p, password2: $p, passcode: $c) }`;
    const refused = await gql(t.app, RESET, { t: undo, p: password });
    expect(refused.errors?.[0]?.message).toBe('Please enter the code of your authenticator app or a recovery code');
    const unchanged = await gql<{ signin: { issuer: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'long-factor@example.test', password: STRONG_PASSWORD },
    });
    expect(unchanged.errors).toBeUndefined();
    // The owner, with a recovery code: the link works, and the factor stays on.
    const back = await gql(t.app, RESET, { t: undo, p: password, c: owner.recoveryCodes[0] });
    expect(back.errors).toBeUndefined();
    const signin = await gql<{ signin: { issuer: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'long-factor@example.test', password },
    });
    expect(signin.data?.signin.issuer).toBe('identity');
  });

  it('the notice link changes nothing when another account has taken the old address meanwhile', async () => {
    const { token } = await confirmedUser(t, 'left-behind@example.test');
    const since = smtp.mails.length;
    await gql(t.app, UPDATE, { email: 'went-ahead@example.test' }, bearer(token));
    const { token: undo } = linkIn(await smtp.waitFor('left-behind@example.test', since), '/auth/password');
    const { token: confirm } = linkIn(await smtp.waitFor('went-ahead@example.test', since), '/auth/email');
    await gql(t.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', { t: confirm });
    await confirmedUser(t, 'left-behind@example.test');
    const password = 'Orchid-Lantern-Quarry-58!';
    const refused = await gql(
      t.app,
      'mutation($t: String!, $p: String!) { authPasswordReset(token: $t, password: $p, password2: $p) }',
      { t: undo, p: password },
    );
    expect(refused.errors?.[0]?.message).toBe('This email is already registered');
    const stays = await gql<{ user: { email: string } }>(t.app, '{ user { email } }', {}, bearer(token));
    expect(stays.data?.user.email).toBe('went-ahead@example.test');
  });

  it('needs a session', async () => {
    const res = await gql(t.app, UPDATE, { firstName: 'X' });
    expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
