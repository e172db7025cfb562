// Referral campaigns end to end through the API: created by an administrator, used by sign-ups
// (password and Google), credited once when the mailed link confirms the email, counted in the
// stats CSV, deleted by link or suffix; bad input gets SPEC's messages and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceOf,
  expectRefusal,
  footprint,
  ledgerOf,
  REFERRER_CREATE,
  REFERRER_DELETE,
  SIGNUP_REFERRED,
  SIGNUP_REFERRER,
  STATS,
} from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, STRONG_PASSWORD } from '../../../test/identity.ts';
import { browserNonce, type LocalJwks, startLocalJwks } from '../../../test/jwks.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { grantReferralCredits } from './referral.ts';

let t: TestApp;
let smtp: SmtpSink;
let jwks: LocalJwks;
let admin: Awaited<ReturnType<typeof confirmedUser>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
  jwks = await startLocalJwks();
  t = await startTestApp({
    env: { SMTP_URL: smtp.url, GOOGLE_CLIENT_ID: 'google-client.apps.test', GOOGLE_JWKS_URL: jwks.url },
  });
  admin = await confirmedUser(t, 'admin@example.test');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await jwks.close();
});

const asAdmin = () => bearer(admin.token);
const CONFIRM = `mutation($token: String!) { authEmailConfirm(token: $token) { token } }`;

async function createCampaign(vars: Record<string, unknown>): Promise<string> {
  const res = await gql<{ adminReferrerCreate: { code: string } }>(t.app, REFERRER_CREATE, vars, asAdmin());
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return res.data.adminReferrerCreate.code;
}

async function signUp(email: string, referrerCode?: string) {
  return gql<{ signup: { key: string } }>(t.app, SIGNUP_REFERRED, {
    credentials: { email, password: STRONG_PASSWORD },
    referrerCode,
    promotionCode: 'WELCOME,SPRING',
  });
}

/** Opens the confirmation link mailed to `email`. */
async function confirmByMail(email: string): Promise<string> {
  const { token } = linkIn(await smtp.waitFor(email), '/auth/email');
  const res = await gql<{ authEmailConfirm: { token: string } }>(t.app, CONFIRM, { token });
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return res.data.authEmailConfirm.token;
}

function csvRows(csv: string): string[][] {
  return csv
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
}

async function statsRow(code: string): Promise<Record<string, string>> {
  const res = await gql<{ adminReferrerStatsReport: string }>(t.app, STATS, {}, asAdmin());
  const [header = [], ...rows] = csvRows(res.data?.adminReferrerStatsReport ?? '');
  const row = rows.find((cells) => cells[1] === code) ?? [];
  return Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
}

describe('adminReferrerCreate', () => {
  it('returns a code; a brokerage alone names a campaign', async () => {
    const res = await gql(t.app, REFERRER_CREATE, { name: 'Spring 2025', credits: 100 }, asAdmin());
    expect(res.data).toEqual({
      adminReferrerCreate: {
        code: expect.stringMatching(/^[a-z2-9]{8}$/),
        name: 'Spring 2025',
        providerName: null,
        credits: 100,
      },
    });
    const byBroker = await gql(t.app, REFERRER_CREATE, { providerName: 'paper', credits: 50 }, asAdmin());
    expect(byBroker.data).toMatchObject({ adminReferrerCreate: { name: null, providerName: 'paper', credits: 50 } });
  });

  it.each([
    [{ name: 'A'.repeat(17), credits: 100 }, 'At most 16 characters'],
    [{ name: 'Spring!', credits: 100 }, 'Special characters are not allowed'],
    [{ name: 'a<script>', credits: 100 }, 'Special characters are not allowed'],
    [{ name: '', credits: 100 }, 'Required, if brokerage is not selected'],
    [{ name: '   ', providerName: '', credits: 100 }, 'Required, if brokerage is not selected'],
    [{ providerName: 'nosuchbroker', credits: 100 }, 'Unknown brokerage'],
    // Listed but not connectable here: no order API, or an OAuth broker without this server's app.
    [{ providerName: 'lightspeed', credits: 100 }, 'Lightspeed cannot be connected on this server'],
    [{ providerName: 'saxo', credits: 100 }, 'Saxo cannot be connected on this server'],
    [{ name: 'Spring', credits: 0 }, 'Must be greater than 0'],
    [{ name: 'Spring', credits: -100 }, 'Must be greater than 0'],
    [{ name: 'Spring', credits: 2_000_000_000 }, 'At most 1000000'],
    [{ name: 'Spring', credits: 10.5 }, /Int cannot represent non-integer value/],
  ])('refuses %o with "%s" and creates nothing', async (vars, message) => {
    const before = await footprint(t);
    expectRefusal(await gql(t.app, REFERRER_CREATE, vars, asAdmin()), message);
    expect(await footprint(t)).toEqual(before);
  });
});

describe('the referral journey', () => {
  it('credits the campaign once, when the mailed link confirms the email, and counts it', async () => {
    const code = await createCampaign({ name: 'Autumn', credits: 100 });
    const lookup = await gql(t.app, SIGNUP_REFERRER, { code: `https://router.example/signup/${code.toUpperCase()}` });
    expect(lookup.data).toEqual({ signupReferrer: { code, name: 'Autumn', credits: 100, isActive: true } });

    expect((await signUp('carol@example.test', code)).errors).toBeUndefined();
    // Not at sign-up: an unconfirmed account farms nothing.
    expect(await balanceOf(t, 'carol@example.test')).toBe(5);
    const { rows } = await t.services.db.$client.query(
      `select metadata -> 'signup' as signup from accounts a join users u on u.id = a.user_id where u.email = $1`,
      ['carol@example.test'],
    );
    expect(rows[0]?.signup).toEqual({
      referrerCode: code,
      promotionCodes: ['WELCOME', 'SPRING'],
      client: expect.any(String),
    });
    expect(await statsRow(code)).toMatchObject({ signups: '1', 'confirmed signups': '0', 'credits granted': '0' });

    const session = await confirmByMail('carol@example.test');
    const account = await gql<{ account: { balance: number } }>(t.app, '{ account { balance } }', {}, bearer(session));
    expect(account.data?.account.balance).toBe(105);
    const { rows: ids } = await t.services.db.$client.query<{ id: string }>('select id from users where email = $1', [
      'carol@example.test',
    ]);
    const userId = Number(ids[0]?.id);
    expect(await ledgerOf(t, 'carol@example.test')).toEqual([
      { cause: 'signup', credits: 5, reference: null },
      { cause: 'referral', credits: 100, reference: `referral:${userId}` },
    ]);
    // Granted once: a second attempt books nothing.
    expect(await t.services.db.transaction((tx) => grantReferralCredits(tx, userId))).toBeNull();
    expect(await balanceOf(t, 'carol@example.test')).toBe(105);

    expect(await statsRow(code)).toEqual({
      name: 'Autumn',
      code,
      signups: '1',
      'confirmed signups': '1',
      'paying users': '0',
      'signals sent': '0',
      'credits granted': '100',
      brokerage: '',
      'deleted at': '',
    });
  });

  it('keeps the code through a Google sign-up, crediting at once (the provider verified the email)', async () => {
    const code = await createCampaign({ name: 'Social', credits: 40 });
    const nonce = browserNonce();
    const token = await jwks.sign({
      iss: 'https://accounts.google.com',
      aud: 'google-client.apps.test',
      email: 'gina@example.test',
      email_verified: true,
      nonce: nonce.claim,
    });
    const res = await gql(
      t.app,
      `mutation($credentials: JSON!, $code: String) { signup(type: "token", credentials: $credentials, referrerCode: $code) { email } }`,
      { credentials: { issuer: 'google', token, nonce: nonce.value }, code },
    );
    expect(res.errors).toBeUndefined();
    expect(await balanceOf(t, 'gina@example.test')).toBe(45);
    expect(await statsRow(code)).toMatchObject({ signups: '1', 'confirmed signups': '1', 'credits granted': '40' });
  });

  it('refuses a code that is not ours, creating no account', async () => {
    const res = await signUp('dave@example.test', 'notours99');
    expect(res.errors?.[0]).toMatchObject({
      message: 'This referral code is not valid',
      extensions: { code: 'BAD_USER_INPUT', field: 'referrerCode' },
    });
    const { rows } = await t.services.db.$client.query('select 1 from users where email = $1', ['dave@example.test']);
    expect(rows).toEqual([]);
    expect((await gql(t.app, SIGNUP_REFERRER, { code: 'notours99' })).data).toEqual({ signupReferrer: null });
    expect((await gql(t.app, SIGNUP_REFERRER, { code: '../../etc' })).data).toEqual({ signupReferrer: null });
  });

  it('reads a link whose code is badly percent-encoded as a code that is not ours, never an internal error', async () => {
    const link = 'https://app.example.test/signup?code=%E0%A4%A';
    expect(await gql(t.app, SIGNUP_REFERRER, { code: link })).toEqual({ data: { signupReferrer: null } });
    const res = await signUp('henry@example.test', link);
    expect(res.errors?.[0]).toMatchObject({
      message: 'This referral code is not valid',
      extensions: { code: 'BAD_USER_INPUT', field: 'referrerCode' },
    });
    const { rows } = await t.services.db.$client.query('select 1 from users where email = $1', ['henry@example.test']);
    expect(rows).toEqual([]);
    const deleted = await gql(t.app, REFERRER_DELETE, { ref: link }, asAdmin());
    expect(deleted.errors?.[0]).toMatchObject({
      message: 'No referrer link with this code',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('adminReferrerDelete', () => {
  it('deletes by link or suffix; the deleted link says so and grants nothing', async () => {
    const code = await createCampaign({ name: 'Winter', credits: 70 });
    expect((await signUp('erin@example.test', code)).errors).toBeUndefined();
    const res = await gql(t.app, REFERRER_DELETE, { ref: `http://localhost:3000/signup/${code}/` }, asAdmin());
    expect(res).toEqual({ data: { adminReferrerDelete: true } });
    const again = await gql(t.app, REFERRER_DELETE, { ref: code }, asAdmin());
    expect(again.errors?.[0]?.message).toBe('This referrer link was deleted already');
    const unknown = await gql(t.app, REFERRER_DELETE, { ref: 'zzzzzzzz' }, asAdmin());
    expect(unknown.errors?.[0]?.message).toBe('No referrer link with this code');
    const empty = await gql(t.app, REFERRER_DELETE, { ref: ' ' }, asAdmin());
    expect(empty.errors?.[0]?.message).toBe('Required');

    expect((await gql(t.app, SIGNUP_REFERRER, { code })).data).toEqual({
      signupReferrer: { code, name: 'Winter', credits: 70, isActive: false },
    });
    // Erin signed up before the deletion, Frank after: neither gets the campaign's credits.
    expect((await signUp('frank@example.test', code)).errors).toBeUndefined();
    await confirmByMail('erin@example.test');
    await confirmByMail('frank@example.test');
    expect(await balanceOf(t, 'erin@example.test')).toBe(5);
    expect(await balanceOf(t, 'frank@example.test')).toBe(5);
    const row = await statsRow(code);
    expect(row).toMatchObject({ signups: '2', 'confirmed signups': '2', 'credits granted': '0' });
    expect(row['deleted at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('counts paying users and live signals of a campaign', async () => {
    const code = await createCampaign({ name: 'Pay', credits: 10 });
    await signUp('paula@example.test', code);
    await confirmByMail('paula@example.test');
    const { rows } = await t.services.db.$client.query<{ id: string }>('select id from users where email = $1', [
      'paula@example.test',
    ]);
    const id = Number(rows[0]?.id);
    await t.services.db.$client.query(
      `insert into payments (user_id, reference, credits, price, currency, description)
       values ($1, 'cs_test_1', 0, 9900, 'usd', 'Professional status')`,
      [id],
    );
    await t.services.db.$client.query(
      `insert into signals (id, user_id, connector_id, account_id, provider_name, status, is_test)
       values ('r1', $1, 1, 'A', 'paper', 'filled', false), ('r2', $1, 1, 'A', 'paper', 'draft', true)`,
      [id],
    );
    expect(await statsRow(code)).toMatchObject({ 'paying users': '1', 'signals sent': '1', 'credits granted': '10' });
  });
});
