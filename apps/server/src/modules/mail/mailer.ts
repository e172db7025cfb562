// Sends mail through SMTP_URL with MAIL_FROM. Without SMTP_URL each mail is written to the log
// (subject, recipient and its link, never a password), so a fresh machine can still confirm:
// only on a development machine, whose PUBLIC_URL is a local host (the default
// http://localhost:PORT of README's `npm start`). On a public PUBLIC_URL the links, which carry
// sign-in, reset and confirmation tokens, are never logged, and a warning at start says why.
import { publicUrlProblems } from '@router/shared';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link of the mail, logged when no SMTP server is configured on a local PUBLIC_URL. */
  link: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** No SMTP_URL: a mail is only written to the log, it reaches nobody. */
  readonly logOnly?: true;
}

/**
 * How long an SMTP server may keep a mail waiting: to connect, to greet, and silent at any step
 * after. nodemailer's own (2 min, 30 s, 10 min) let a stalled server hold the notification
 * worker's round, and its open transaction, for ten minutes. Parameters in SMTP_URL's query
 * (`?socketTimeout=60000`) still override them.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export const LINKS_NOT_LOGGED =
  'SMTP_URL is not set: mails (sign-up confirmations, password resets) reach nobody, and as PUBLIC_URL is a public address their links are not written to the log either; set SMTP_URL';

export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL'>,
  log: Logger,
  timeouts: typeof SMTP_TIMEOUTS = SMTP_TIMEOUTS,
): Mailer {
  if (!config.SMTP_URL) {
    const development = publicUrlProblems(config.PUBLIC_URL).includes('private-host');
    if (!development) log.warn({ url: config.PUBLIC_URL }, LINKS_NOT_LOGGED);
    return {
      logOnly: true,
      async send(mail) {
        if (development) {
          log.info(
            { to: mail.to, subject: mail.subject, link: mail.link },
            'mail not sent (no SMTP_URL): %s',
            mail.link,
          );
        } else {
          log.info({ to: mail.to, subject: mail.subject }, 'mail not sent (no SMTP_URL; its link is not logged)');
        }
      },
    };
  }
  const url = config.SMTP_URL;
  // nodemailer (~4 MB in memory) is loaded with the first mail, not at server start.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({ ...timeouts, url }),
      );
      await (await transport).sendMail({
        from: config.MAIL_FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
  };
}

/** Sends without failing the caller: a mail that cannot go out is logged as an error. */
export async function deliver(mailer: Mailer, log: Logger, mail: Mail): Promise<void> {
  try {
    await mailer.send(mail);
  } catch (err) {
    log.error({ err, to: mail.to, subject: mail.subject }, 'mail delivery failed');
  }
}
