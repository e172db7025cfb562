// The identity mails. Links open screens of the web app under PUBLIC_URL (SPEC §2 routes).
import type { Mail } from './mailer.ts';

export const PRODUCT = 'Signal Router';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function mail(to: string, subject: string, lines: string[], link: string): Mail {
  const text = [...lines, '', link, '', `— ${PRODUCT}`].join('\n');
  const html = `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>— ${PRODUCT}</p>`;
  return { to, subject, text, html, link };
}

export function confirmEmailMail(publicUrl: string, to: string, token: string, name: string | null): Mail {
  const link = `${publicUrl}/auth/email?token=${encodeURIComponent(token)}`;
  return mail(
    to,
    `Confirm your email for ${PRODUCT}`,
    [`Hello${name ? ` ${name}` : ''},`, 'please confirm your email address by opening this link (valid for 3 days):'],
    link,
  );
}

export function changeEmailMail(publicUrl: string, to: string, token: string): Mail {
  const link = `${publicUrl}/auth/email?token=${encodeURIComponent(token)}`;
  return mail(
    to,
    `Confirm your new email for ${PRODUCT}`,
    ['You asked to change the email of your account to this address. Open this link to confirm it:'],
    link,
  );
}

/** To the old address when a change of email is asked for: a taken session must not move it unseen. */
export function emailChangeNoticeMail(publicUrl: string, to: string): Mail {
  const link = `${publicUrl}/auth/password/request`;
  return mail(
    to,
    `The email of your ${PRODUCT} account is being changed`,
    [
      'Someone signed in to your account asked to change its email from this address to another one.',
      'If it was you, nothing more is needed. If it was not, reset your password now with this link: that ends every session and the pending change.',
    ],
    link,
  );
}

export function passwordResetMail(publicUrl: string, to: string, token: string): Mail {
  const link = `${publicUrl}/auth/password?token=${encodeURIComponent(token)}`;
  return mail(
    to,
    `Reset your ${PRODUCT} password`,
    [
      'Someone (hopefully you) asked to reset the password of your account.',
      'Open this link within one hour to choose a new password. If it was not you, ignore this mail.',
    ],
    link,
  );
}
