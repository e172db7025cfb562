// A new API token is mailed to the account's address: it places orders and outlives a password
// reset, so one made from a taken session must not go unseen.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { issueSession } from '../auth/sessions.ts';

let t: TestApp;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://router.example' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const CREATE = 'mutation { userTokenCreate(metadata: {name: "bot"}) { key secret } }';
const SUBJECT = 'A new API token was created for your Signal Router account';

describe('API token notice', () => {
  it('mails the owner the new token’s last characters and where to delete it, never the secret', async () => {
    const email = 'token-notice@example.test';
    const { token } = await confirmedUser(t, email);
    const since = smtp.mails.length;
    const made = await gql<{ userTokenCreate: { key: string; secret: string } }>(t.app, CREATE, {}, bearer(token));
    const secret = made.data?.userTokenCreate.secret ?? '';
    expect(secret).toMatch(/^[\w-]{43}$/);
    const notice = await vi.waitFor(
      () => {
        const found = smtp.mails.slice(since).find((m) => m.to.includes(email) && m.subject === SUBJECT);
        if (!found) throw new Error('no notice yet');
        return found;
      },
      { timeout: 5000, interval: 50 },
    );
    expect(notice.text).toContain(`An API token ending in ${secret.slice(-4)} was created`);
    expect(notice.text).toContain('https://router.example/me/settings');
    expect(notice.text).not.toContain(secret);
  });

  it('sends nothing when the token is refused', async () => {
    const { token } = await confirmedUser(t, 'token-refused@example.test');
    await t.services.identity.settled();
    const since = smtp.mails.length;
    const refused = await gql(t.app, 'mutation { userTokenCreate(metadata: "x") { key } }', {}, bearer(token));
    expect(refused.errors?.[0]?.message).toBe('Metadata must be a JSON object');
    await t.services.identity.settled();
    expect(smtp.mails.slice(since).filter((m) => m.subject === SUBJECT)).toEqual([]);
  });

  it('holds the limit of 50 tokens when the requests arrive all at once', async () => {
    const { id, token } = await confirmedUser(t, 'token-burst@example.test');
    for (let i = 0; i < 48; i++) await issueSession(t.services, id, 'api', { address: null });
    const answers = await Promise.all(Array.from({ length: 6 }, () => gql(t.app, CREATE, {}, bearer(token))));
    expect(answers.filter((a) => a.data)).toHaveLength(2);
    expect(new Set(answers.flatMap((a) => a.errors?.map((e) => e.message) ?? []))).toEqual(
      new Set(['At most 50 tokens; delete one first']),
    );
    const { rows } = await t.services.db.$client.query(
      "select 1 from sessions where user_id = $1 and kind = 'api' and revoked_at is null",
      [id],
    );
    expect(rows).toHaveLength(50);
  });
});
