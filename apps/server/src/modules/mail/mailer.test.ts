import { createServer, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMailer, LINKS_NOT_LOGGED } from './mailer.ts';
import { passwordResetMail } from './templates.ts';

describe('mailer without SMTP_URL', () => {
  it('writes the mail and its link to the log, and nothing else of its body', async () => {
    const log = pino({ level: 'silent' });
    const info = vi.spyOn(log, 'info');
    const mailer = createMailer(
      { SMTP_URL: undefined, MAIL_FROM: 'x <x@localhost>', PUBLIC_URL: 'http://localhost:3000' },
      log,
    );
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

  it('never logs a link, whose token opens the account, when PUBLIC_URL is public; warns once at start', async () => {
    const log = pino({ level: 'silent' });
    const info = vi.spyOn(log, 'info');
    const warn = vi.spyOn(log, 'warn');
    const url = 'https://router.example.com';
    const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'x <x@localhost>', PUBLIC_URL: url }, log);
    expect(mailer.logOnly).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]).toEqual([{ url }, LINKS_NOT_LOGGED]);
    await mailer.send(passwordResetMail(url, 'a@example.test', 'tok_123'));
    expect(info).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(info.mock.calls)).not.toContain('tok_123');
    expect(info.mock.calls[0]?.[0]).toEqual({ to: 'a@example.test', subject: 'Reset your Signal Router password' });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('mailer with a stalled SMTP server', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  });
  /** A TCP server that accepts, says `greeting` (if any) and then nothing more. */
  const stalled = async (greeting?: string) => {
    const server = createServer((socket) => {
      sockets.push(socket);
      if (greeting) socket.write(greeting);
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const address = server.address();
    return `smtp://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  };
  const mail = passwordResetMail('http://localhost:3000', 'a@example.test', 'tok_123');
  const log = pino({ level: 'silent' });

  // nodemailer's own greeting timeout (30 s) outlasts this test's 20 s; ours gives up after 10 s.
  it('gives up on a server that accepts and says nothing, instead of holding the sender', async () => {
    const mailer = createMailer(
      { SMTP_URL: await stalled(), MAIL_FROM: 'x <x@localhost>', PUBLIC_URL: 'http://localhost:3000' },
      log,
    );
    await expect(mailer.send(mail)).rejects.toThrow(/greeting/i);
  }, 20_000);

  // nodemailer's own socket timeout is 10 minutes.
  it('gives up on a server that greets and then stalls', async () => {
    const mailer = createMailer(
      {
        SMTP_URL: await stalled('220 stalled ESMTP\r\n'),
        MAIL_FROM: 'x <x@localhost>',
        PUBLIC_URL: 'http://localhost:3000',
      },
      log,
      {
        connectionTimeout: 1_000,
        greetingTimeout: 1_000,
        socketTimeout: 1_000,
      },
    );
    await expect(mailer.send(mail)).rejects.toThrow(/timeout/i);
  });
});
