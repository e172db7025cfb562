// Sends the emailed links: confirmation (3 days), email change (3 days, with a notice to the old
// address carrying a reset link that keeps or brings back that address, 7 days), password reset
// (1 hour); and the notice of a change of the second factor, which for a factor turned on
// carries a reset link that also turns that factor off (3 days).
import {
  type EmailTokenPurpose,
  type EmailTokenRow,
  insertEmailToken,
  invalidateEmailTokens,
} from '../../db/repositories/email-token.repository.ts';
import { findUserByEmail, type UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { deliver, type Mail } from '../mail/mailer.ts';
import {
  apiTokenNoticeMail,
  changeEmailMail,
  confirmEmailMail,
  emailChangeNoticeMail,
  emailChangeTakenMail,
  passwordResetMail,
  type SecondFactorChange,
  secondFactorNoticeMail,
  signupTakenMail,
} from '../mail/templates.ts';
import { RULES } from './rate-limit.ts';
import { hashToken, newToken } from './tokens.ts';

const CONFIRM_TTL_MS = 3 * 86_400_000;
/** How long the "it was not me" link of a factor turned on works. */
export const FACTOR_UNDO_TTL_MS = 3 * 86_400_000;
/** How long the "it was not me" link of an email change works, the change confirmed or not. */
export const EMAIL_UNDO_TTL_MS = 7 * 86_400_000;
export const RESET_TTL_MS = 3_600_000;

/**
 * Sent after the answer (a failure is logged, as deliver does anyway): an answer that waited for
 * the mail server would take longer when a mail goes out, and a registered address gets fewer
 * mails (its owner's notices at most every 5 minutes), so a slow mail server would tell a
 * sign-up, legacy registration or email change with a registered address from a new one.
 */
function send(services: Services, mail: Mail): void {
  services.identity.background(() => deliver(services.identity.mailer, services.log, mail));
}

/** Purposes whose earlier links keep working when a new one is sent (see sendEmailChange). */
const KEPT = new Set<EmailTokenPurpose>(['email_confirm', 'email_undo']);

/** A new link's token, stored hashed; earlier unused links of the same purpose stop working. */
async function newLink(
  services: Services,
  userId: number,
  purpose: EmailTokenPurpose,
  ttlMs: number,
  options: { metadata?: EmailTokenRow['metadata']; from?: Date } = {},
): Promise<string> {
  const token = newToken();
  if (!KEPT.has(purpose)) await invalidateEmailTokens(services.db, userId, purpose);
  await insertEmailToken(services.db, {
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date((options.from?.getTime() ?? Date.now()) + ttlMs),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  });
  return token;
}

export async function sendConfirmation(services: Services, user: UserRow): Promise<void> {
  const token = await newLink(services, user.id, 'email_confirm', CONFIRM_TTL_MS);
  const mail = confirmEmailMail(services.config.PUBLIC_URL, user.email, token, user.firstName);
  send(services, mail);
}

/** The owner's notice of a sign-up with their address (signup.ts): no link of theirs changes. */
export async function sendSignupTaken(services: Services, user: UserRow): Promise<void> {
  send(services, signupTakenMail(services.config.PUBLIC_URL, user.email));
}

/**
 * The link to the new address, and a notice to the old one. A taken session could otherwise move
 * the account to the taker's address for good (the change needs no password: SPEC's userUpdate),
 * so the notice carries a reset link that brings this address back, turns the second factor off
 * and ends every session and token, for 7 days, confirmed change or not. A later change does not
 * end it: its notice goes to the address then on the account, perhaps the taker's.
 */
export async function sendEmailChange(services: Services, user: UserRow, email: string): Promise<void> {
  const toNew = await newAddressMail(services, user, email);
  const undo = await newLink(services, user.id, 'email_undo', EMAIL_UNDO_TTL_MS, { metadata: { email: user.email } });
  if (toNew) send(services, toNew);
  const notice = emailChangeNoticeMail(services.config.PUBLIC_URL, user.email, undo);
  send(services, notice);
}

/**
 * The change link, or, when another account holds the address, a notice to its owner (at most one
 * in 5 minutes) and no link: the answer and the old address's notice stay those of a free address,
 * so userUpdate(email) tells nobody who is registered, as sign-up does not. The change is recorded
 * as pending either way (a link nobody receives for a held address), so the pending email the
 * settings show tells neither; earlier change links end (the latest request is the one that counts).
 */
async function newAddressMail(services: Services, user: UserRow, email: string): Promise<Mail | null> {
  const token = await newLink(services, user.id, 'email_change', CONFIRM_TTL_MS, { metadata: { email } });
  const owner = await findUserByEmail(services.db, email);
  if (!owner) return changeEmailMail(services.config.PUBLIC_URL, email, token);
  if (!(await services.identity.limiter.take(`email-change-taken:${owner.id}`, RULES.confirmationResend))) return null;
  return emailChangeTakenMail(services.config.PUBLIC_URL, owner.email);
}

/**
 * Tells the account's address that its second factor was turned on or off or got new recovery
 * codes. A factor turned on by a taken session locks the owner out of sign-in and of an ordinary
 * reset (both need its code), so that notice carries a reset link of its own: it needs no code
 * and turns off the factor it was sent for (bound to its activation time: a factor turned off and
 * on again makes a new link), for 3 days. A later reset request does not end it.
 */
export async function sendSecondFactorNotice(
  services: Services,
  user: UserRow,
  change: SecondFactorChange,
  at = new Date(),
): Promise<void> {
  const undo =
    change === 'enabled'
      ? await newLink(services, user.id, 'factor_undo', FACTOR_UNDO_TTL_MS, {
          metadata: { factorActiveAt: at.toISOString() },
          from: at,
        })
      : undefined;
  const mail = secondFactorNoticeMail(services.config.PUBLIC_URL, user.email, change, at, undo);
  send(services, mail);
}

export async function sendPasswordReset(services: Services, user: UserRow): Promise<void> {
  const token = await newLink(services, user.id, 'password_reset', RESET_TTL_MS);
  send(services, passwordResetMail(services.config.PUBLIC_URL, user.email, token));
}

/** Tells the account's address that an API token was made (templates.ts apiTokenNoticeMail). */
export function sendApiTokenNotice(services: Services, user: UserRow, suffix: string, at = new Date()): void {
  send(services, apiTokenNoticeMail(services.config.PUBLIC_URL, user.email, suffix, at));
}
