import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createMailer } from './mailer.ts';
import { passwordResetMail } from './templates.ts';

describe('mailer without SMTP_URL', () => {
  it('writes the mail and its link to the log, and nothing else of its body', async () => {
    const log = pino({ level: 'silent' });
    const info = vi.spyOn(log, 'info');
    const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'x <x@localhost>' }, log);
    const mail = passwordResetMail('http://localhost:3000', 'a@example.test', 'tok_123');
    await mailer.send(mail);
    expect(info).toHaveBeenCalledTimes(1);
    const [fields, , link] = info.mock.calls[0] as unknown as [Record<string, unknown>, string, string];
    expect(fields).toEqual({
      to: 'a@example.test',
      subject: 'Reset your Signal Router password',
      link: 'http://localhost:3000/auth/password?token=tok_123',
    });
    expect(link).toBe(fields.link);
  });
});
