// Sends the emailed links: confirmation (3 days), email change (3 days, with a notice to the old
// address), password reset (1 hour); and the notice of a change of the second factor, which for a
// factor turned on carries a reset link that also turns that factor off (3 days).
import { insertEmailToken, invalidateEmailTokens } from '../../db/repositories/email-token.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { deliver } from '../mail/mailer.ts';
import {
  changeEmailMail,
  confirmEmailMail,
  emailChangeNoticeMail,
  passwordResetMail,
  type SecondFactorChange,
  secondFactorNoticeMail,
} from '../mail/templates.ts';
import { hashToken, newToken } from './tokens.ts';

const CONFIRM_TTL_MS = 3 * 86_400_000;
/** How long the "it was not me" link of a factor turned on works. */
export const FACTOR_UNDO_TTL_MS = 3 * 86_400_000;
export const RESET_TTL_MS = 3_600_000;

export async function sendConfirmation(services: Services, user: UserRow): Promise<void> {
  const token = newToken();
  await insertEmailToken(services.db, {
    userId: user.id,
    purpose: 'email_confirm',
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
  });
  const mail = confirmEmailMail(services.config.PUBLIC_URL, user.email, token, user.firstName);
  await deliver(services.identity.mailer, services.log, mail);
}

export async function sendEmailChange(services: Services, user: UserRow, email: string): Promise<void> {
  const token = newToken();
  await invalidateEmailTokens(services.db, user.id, 'email_change');
  await insertEmailToken(services.db, {
    userId: user.id,
    purpose: 'email_change',
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
    metadata: { email },
  });
  await deliver(services.identity.mailer, services.log, changeEmailMail(services.config.PUBLIC_URL, email, token));
  // The owner learns of it at the address that still speaks for the account.
  await deliver(services.identity.mailer, services.log, emailChangeNoticeMail(services.config.PUBLIC_URL, user.email));
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
  let undo: string | undefined;
  if (change === 'enabled') {
    undo = newToken();
    await invalidateEmailTokens(services.db, user.id, 'factor_undo');
    await insertEmailToken(services.db, {
      userId: user.id,
      purpose: 'factor_undo',
      tokenHash: hashToken(undo),
      expiresAt: new Date(at.getTime() + FACTOR_UNDO_TTL_MS),
      metadata: { factorActiveAt: at.toISOString() },
    });
  }
  const mail = secondFactorNoticeMail(services.config.PUBLIC_URL, user.email, change, at, undo);
  await deliver(services.identity.mailer, services.log, mail);
}

export async function sendPasswordReset(services: Services, user: UserRow): Promise<void> {
  const token = newToken();
  await invalidateEmailTokens(services.db, user.id, 'password_reset');
  await insertEmailToken(services.db, {
    userId: user.id,
    purpose: 'password_reset',
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + RESET_TTL_MS),
  });
  await deliver(
    services.identity.mailer,
    services.log,
    passwordResetMail(services.config.PUBLIC_URL, user.email, token),
  );
}
