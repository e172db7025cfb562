// Who administers: with ADMIN_EMAILS only those confirmed addresses (checked at confirmation and
// at start); without it the first account to confirm its email. Migration 0014 takes the role
// from unconfirmed first sign-ups, and the start names the earliest confirmed account instead.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { confirmedUser, gql, SIGNIN } from '../../../test/identity.ts';
import { browserNonce, type LocalJwks, startLocalJwks } from '../../../test/jwks.ts';
import { emptyDatabase, migrationsBefore } from '../../../test/migrations-before.ts';
import { runMigrations } from '../../db/migrate.ts';
import type { Services } from '../../services.ts';
import { NOT_VOUCHED, NOT_VOUCHED_SIGNUP } from '../auth/signup.ts';
import { settleAdministrators } from './administrators.ts';

let t: TestApp;
let jwks: LocalJwks;
beforeAll(async () => {
  jwks = await startLocalJwks();
  t = await startTestApp({
    env: {
      ADMIN_EMAILS: 'boss@example.test, ops@example.test, desk@example.test',
      GOOGLE_CLIENT_ID: 'google-client.apps.test',
      GOOGLE_JWKS_URL: jwks.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await jwks.close();
});

const groupOf = async (email: string) => {
  const { rows } = await t.services.db.$client.query<{ group: number }>('select "group" from users where email = $1', [
    email,
  ]);
  return rows[0]?.group;
};

const withAdminEmails = (services: Services, emails: string[]): Services => ({
  ...services,
  config: { ...services.config, ADMIN_EMAILS: emails },
});

describe('ADMIN_EMAILS', () => {
  it('makes only the listed addresses administrators, once confirmed', async () => {
    expect((await confirmedUser(t, 'first@example.test')).group).toBe(4);
    expect((await confirmedUser(t, 'Boss@example.test')).group).toBe(5);
  });

  it('promotes listed accounts confirmed before the list named them, at start', async () => {
    await confirmedUser(t, 'later@example.test');
    expect(await groupOf('later@example.test')).toBe(4);
    await settleAdministrators(withAdminEmails(t.services, ['later@example.test']));
    expect(await groupOf('later@example.test')).toBe(5);
    // An unconfirmed listed address is not promoted.
    await t.services.db.$client.query(
      `insert into users (key, email, "group") values ('u_ops', 'ops@example.test', 4)`,
    );
    await settleAdministrators(t.services);
    expect(await groupOf('ops@example.test')).toBe(4);
  });
});

describe('ADMIN_EMAILS and Google sign-in', () => {
  const googleSignin = async (email: string, claims: Record<string, unknown> = {}) => {
    const nonce = browserNonce();
    const token = await jwks.sign({
      iss: 'https://accounts.google.com',
      aud: 'google-client.apps.test',
      email,
      email_verified: true,
      nonce: nonce.claim,
      ...claims,
    });
    return gql<{ signin: { issuer: string } }>(t.app, SIGNIN, {
      type: 'token',
      credentials: { issuer: 'google', token, nonce: nonce.value },
    });
  };

  it('makes no administrator of a Google account Google does not vouch for the listed address of', async () => {
    // A Google account made once with the desk's address (a former employee's): verified then,
    // perhaps not the address's holder now. Only our emailed link proves the mailbox.
    const foreign = await googleSignin('Desk@example.test');
    expect(foreign.data).toBeNull();
    expect(foreign.errors?.[0]).toMatchObject({ message: NOT_VOUCHED_SIGNUP, extensions: { code: 'FORBIDDEN' } });
    expect(await groupOf('desk@example.test')).toBeUndefined();
    await settleAdministrators(t.services);
    expect(await groupOf('desk@example.test')).toBeUndefined();
    // The address's Workspace account is authoritative (hd), as Gmail is; an unlisted address is
    // let in as before, a customer.
    expect((await googleSignin('desk@example.test', { hd: 'example.test' })).data?.signin.issuer).toBe('user');
    expect(await groupOf('desk@example.test')).toBe(5);
    // Nor does such an identity enter the administrator's account the Workspace one made.
    const again = await googleSignin('desk@example.test');
    expect(again.data).toBeNull();
    expect(again.errors?.[0]).toMatchObject({ message: NOT_VOUCHED, extensions: { code: 'FORBIDDEN' } });
    expect((await googleSignin('trader@example.test')).data?.signin.issuer).toBe('user');
    expect(await groupOf('trader@example.test')).toBe(4);
  });
});

describe('without ADMIN_EMAILS', () => {
  it('names the earliest confirmed account when no confirmed administrator is left', async () => {
    // Its own accounts, confirmed before any other case's (the earliest is installation-wide).
    await confirmedUser(t, 'earliest@example.test');
    await confirmedUser(t, 'next@example.test');
    await t.services.db.$client.query(
      `update users set email_confirmed_at = case email when 'earliest@example.test' then timestamptz '2000-01-01'
         else timestamptz '2000-01-02' end
       where email in ('earliest@example.test', 'next@example.test')`,
    );
    const open = withAdminEmails(t.services, []);
    await t.services.db.$client.query(`update users set "group" = "group" & ~1`);
    await settleAdministrators(open);
    expect(await groupOf('earliest@example.test')).toBe(5);
    expect(await groupOf('next@example.test')).toBe(4);
    // Idempotent: an administrator exists now.
    await settleAdministrators(open);
    const { rows } = await t.services.db.$client.query(`select count(*)::int as n from users where "group" & 1 = 1`);
    expect(rows[0]).toEqual({ n: 1 });
  });
});

describe('migration 0014', () => {
  it('takes the administrator role from unconfirmed accounts only', async () => {
    const { pool, drop } = await emptyDatabase('admin_migration');
    const before = migrationsBefore('0014_admin_tools');
    try {
      await runMigrations(pool, before);
      await pool.query(
        `insert into users (key, email, "group", email_confirmed_at) values
          ('a', 'unconfirmed-first@example.com', 5, null),
          ('b', 'confirmed-admin@example.com', 5, now()),
          ('c', 'customer@example.com', 4, now())`,
      );
      await runMigrations(pool);
      const { rows } = await pool.query('select email, "group" from users order by key');
      expect(rows).toEqual([
        { email: 'unconfirmed-first@example.com', group: 4 },
        { email: 'confirmed-admin@example.com', group: 5 },
        { email: 'customer@example.com', group: 4 },
      ]);
    } finally {
      await drop();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
