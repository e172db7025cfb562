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

/**
 * To an address that already has an account when someone signs up with it: the sign-up answers
 * as for a new address (it must not tell who is registered), so the owner learns of it here.
 */
export function signupTakenMail(publicUrl: string, to: string): Mail {
  return mail(
    to,
    `You already have a ${PRODUCT} account`,
    [
      'Someone (hopefully you) tried to create an account with this address, which already has one: nothing was changed.',
      'Sign in with this link; if you forgot your password, choose "Forgot your password?" there. If it was not you, ignore this mail.',
    ],
    `${publicUrl}/signin`,
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

/**
 * To an address that already has an account when another account asks to move to it: userUpdate
 * answers as for a free address (it must not tell who is registered), so the owner learns of it here.
 */
export function emailChangeTakenMail(publicUrl: string, to: string): Mail {
  return mail(
    to,
    `Your address was given for another ${PRODUCT} account`,
    [
      'Someone signed in to another account asked to change its email to this address, which already has an account: nothing was changed.',
      'Your account is signed in to with this link. If it was not you, ignore this mail.',
    ],
    `${publicUrl}/signin`,
  );
}

/** To the old address when a change of email is asked for: a taken session must not move it unseen. */
export function emailChangeNoticeMail(publicUrl: string, to: string, undoToken: string): Mail {
  return mail(
    to,
    `The email of your ${PRODUCT} account is being changed`,
    [
      'Someone signed in to your account asked to change its email from this address to another one.',
      'If it was you, nothing more is needed. If it was not, open this link within 7 days, even after the change went through, to choose a new password: it keeps or brings back this address as the account email, turns two-step verification off, and ends every session, API token and the pending change.',
    ],
    `${publicUrl}/auth/password?token=${encodeURIComponent(undoToken)}`,
  );
}

export type SecondFactorChange = 'enabled' | 'disabled' | 'recovery-codes';

const FACTOR_SUBJECTS: Record<SecondFactorChange, string> = {
  enabled: `Two-step verification was turned on for your ${PRODUCT} account`,
  disabled: `Two-step verification was turned off for your ${PRODUCT} account`,
  'recovery-codes': `New recovery codes were made for your ${PRODUCT} account`,
};

const FACTOR_LINES: Record<SecondFactorChange, string> = {
  enabled: 'Someone signed in to your account turned on two-step verification with an authenticator app',
  disabled: 'Someone signed in to your account turned off two-step verification',
  'recovery-codes':
    'Someone signed in to your account made new recovery codes for two-step verification (the old ones no longer work)',
};

/**
 * To the account's address when its second factor is turned on or off or its recovery codes are
 * renewed: a taken session must not change the factor unseen (turned on, it locks the owner out).
 */
export function secondFactorNoticeMail(
  publicUrl: string,
  to: string,
  change: SecondFactorChange,
  at: Date,
  undoToken?: string,
): Mail {
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  if (undoToken) {
    return mail(
      to,
      FACTOR_SUBJECTS[change],
      [
        `${FACTOR_LINES[change]} on ${when}.`,
        'If it was you, nothing more is needed. If it was not you, someone else is signed in to your account: open this link within 3 days to choose a new password. It needs no verification code, turns two-step verification off again, and ends every session and API token.',
      ],
      `${publicUrl}/auth/password?token=${encodeURIComponent(undoToken)}`,
    );
  }
  return mail(
    to,
    FACTOR_SUBJECTS[change],
    [
      `${FACTOR_LINES[change]} on ${when}.`,
      'If it was you, nothing more is needed. If it was not you, someone else is signed in to your account: reset your password now with this link, which ends every session, and contact support so that the second factor can be checked.',
    ],
    `${publicUrl}/auth/password/request`,
  );
}

/**
 * To the account's address when an API token is made: a token can place orders and, unlike a
 * sign-in session, outlives a password change or reset, so one made from a taken session would
 * keep trading unseen. The owner learns of it and deletes it in Settings.
 */
export function apiTokenNoticeMail(publicUrl: string, to: string, suffix: string, at: Date): Mail {
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return mail(
    to,
    `A new API token was created for your ${PRODUCT} account`,
    [
      `An API token ending in ${suffix} was created for your account on ${when}.`,
      'If it was you, nothing more is needed. If it was not you, someone else is signed in to your account: an API token can place orders and keeps working after a password reset, so delete it in Settings now, then reset your password.',
    ],
    `${publicUrl}/me/settings`,
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
