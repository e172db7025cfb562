// Mails of the test server: without SMTP_URL each one is a log line (pino JSON) with its link.
import fs from 'node:fs';
import { serverLogFile } from './support/server.ts';

interface MailLine {
  to?: string;
  subject?: string;
  link?: string;
}

function mails(): MailLine[] {
  return fs
    .readFileSync(serverLogFile(), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"link"'))
    .map((line) => JSON.parse(line) as MailLine);
}

/** The newest link to `to` containing `path`, waiting for the mail to be written. */
export async function mailLink(to: string, path: string, after = 0, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mails()
      .slice(after)
      .filter((mail) => mail.to === to && mail.link?.includes(path))
      .at(-1)?.link;
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with ${path} in the server log`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How many mails were written so far (to look only at later ones). */
export const mailCount = (): number => mails().length;
