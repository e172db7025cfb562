// A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message, for mail tests.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  /** The decoded text/plain part. */
  text: string;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the first mail to `to` received after `since` mails (polls up to 5 s). */
  waitFor(to: string, since?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decode(body: string, encoding: string | undefined): string {
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text; the space between two is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? decode(text, 'base64') : decode(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

function header(head: string, name: string): string | undefined {
  return new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
    .exec(head)?.[1]
    ?.replace(/\r?\n[ \t]/g, ' ')
    .trim();
}

/** The text/plain part of a (possibly multipart) message, decoded. */
function parse(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\r\n\r\n');
  const subject = decodeWords(header(head, 'Subject') ?? '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(header(head, 'Content-Type') ?? '')?.[1];
  if (!boundary) return { subject, text: decode(body, header(head, 'Content-Transfer-Encoding')) };
  for (const part of body.split(`--${boundary}`)) {
    const [partHead = '', ...partBody] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    if (/text\/plain/i.test(header(partHead, 'Content-Type') ?? '')) {
      return { subject, text: decode(partBody.join('\r\n\r\n'), header(partHead, 'Content-Transfer-Encoding')) };
    }
  }
  return { subject, text: body };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { subject, text } = parse(Buffer.concat(chunks).toString('utf8'));
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject,
          text,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, since = 0) {
      for (let i = 0; i < 100; i++) {
        const found = mails.slice(since).find((m) => m.to.includes(to));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a mail under `path` (e.g. /auth/email), and its token parameter. */
export function linkIn(mail: ReceivedMail, path: string): { link: string; token: string } {
  const link = new RegExp(`https?://\\S+${path}\\?token=[\\w-]+`).exec(mail.text)?.[0];
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return { link, token: new URL(link).searchParams.get('token') ?? '' };
}
