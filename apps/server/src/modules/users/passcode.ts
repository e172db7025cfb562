// Second-factor enrollment (SPEC §3 Passcode, §4 "inactive, then active after a valid code").
// `userPasscode` hands out a pending secret (created once, kept until activated); an active
// secret is never shown again. `userPasscodeUpdate(secret, passcode)` activates the pending
// secret with one valid code and answers ten recovery codes (shown this once); with an empty
// secret and a valid code (or a recovery code) it deactivates the factor and drops the codes.
// A pending secret is sealed for the session that asked for it, and only that session sees and
// activates it (auth/passcode.ts).
// Each change (on, off, new recovery codes) is mailed to the account's address. Turning it on ends
// the user's other sign-in sessions (opened without it).
import { timingSafeEqual } from 'node:crypto';
import { passcodeSchema } from '@router/shared';
import { deleteRecoveryCodes } from '../../db/repositories/recovery-code.repository.ts';
import { activatePasscode, findUserById, setPasscode, type UserRow } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Caller } from '../auth/caller.ts';
import { parseInput, requireOwner, requireViewer } from '../auth/caller.ts';
import { sendSecondFactorNotice } from '../auth/email-links.ts';
import { newPasscodeSecret, openPendingSecret, sealPasscodeSecret, totp, verifyPasscode } from '../auth/passcode.ts';
import { currentRecoveryCodes, issueRecoveryCodes, recoveryCodesLeft } from '../auth/recovery-codes.ts';
import { verifySecondFactor } from '../auth/second-factor.ts';
import { revokeAllOfUser } from '../auth/sessions.ts';

/** `qr` is the text the QR code encodes (the otpauth URI); the web app draws it (qrcode.react). */
export interface PasscodeView {
  secret: string;
  uri: string;
  qr: string;
  isActive: boolean;
  /** The new recovery codes, only in the answer that created them. */
  recoveryCodes: string[];
  /** Unused recovery codes (0 while inactive). */
  recoveryCodesLeft: number;
}

const active = (recoveryCodes: string[], left: number): PasscodeView => ({
  secret: '',
  uri: '',
  qr: '',
  isActive: true,
  recoveryCodes,
  recoveryCodesLeft: left,
});
const INACTIVE: PasscodeView = {
  secret: '',
  uri: '',
  qr: '',
  isActive: false,
  recoveryCodes: [],
  recoveryCodesLeft: 0,
};

const OWNER_ONLY = 'The second factor can only be set up by its owner';

/** The caller's user; `ownerOnly`: refused in admin proxy mode. */
async function viewerUser(caller: Caller, ownerOnly = true): Promise<UserRow> {
  return (await viewerAndUser(caller, ownerOnly)).user;
}

async function viewerAndUser(caller: Caller, ownerOnly: boolean): Promise<{ viewer: Viewer; user: UserRow }> {
  const viewer = ownerOnly ? requireOwner(caller, OWNER_ONLY) : requireViewer(caller);
  const user = await findUserById(caller.services.db, viewer.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return { viewer, user };
}

function pendingView(secret: string, email: string): PasscodeView {
  const uri = totp(secret, email).toString();
  return { ...INACTIVE, secret, uri, qr: uri };
}

export async function getPasscode(caller: Caller): Promise<PasscodeView> {
  const { services } = caller;
  const { viewer, user } = await viewerAndUser(caller, false);
  if (user.passcodeActiveAt) return active([], await recoveryCodesLeft(services, user.id));
  // An administrator acting as the user, or an API token, sees the state, never a seed the user
  // would later enroll.
  if (viewer.proxiedBy !== undefined || viewer.apiToken) return INACTIVE;
  // The seed is this session's alone: another session of the user (a taken one) gets a seed of
  // its own, which replaces this one; the owner then reloads, and never activates a seed it read.
  const pending = openPendingSecret(services, user, viewer.sessionId);
  if (pending) return pendingView(pending, user.email);
  const secret = newPasscodeSecret();
  await setPasscode(services.db, user.id, {
    secret: sealPasscodeSecret(services, user.id, secret, viewer.sessionId),
    activeAt: null,
    lastStep: null,
  });
  return pendingView(secret, user.email);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a.toUpperCase());
  const y = Buffer.from(b.toUpperCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function updatePasscode(
  caller: Caller,
  input: { secret: string; passcode: string },
): Promise<PasscodeView> {
  const { services } = caller;
  const { viewer, user } = await viewerAndUser(caller, true);
  const passcode = input.passcode.trim();
  if (!input.secret) {
    if (!user.passcodeActiveAt)
      throw new AppError('VALIDATION', 'The second factor is not active', { field: 'secret' });
    await verifySecondFactor(services, user, passcode, 'passcode');
    await setPasscode(services.db, user.id, { secret: null, activeAt: null, lastStep: null });
    await deleteRecoveryCodes(services.db, user.id);
    await sendSecondFactorNotice(services, user, 'disabled');
    return INACTIVE;
  }
  if (user.passcodeActiveAt)
    throw new AppError('VALIDATION', 'The second factor is already active', { field: 'secret' });
  const pending = openPendingSecret(services, user, viewer.sessionId);
  if (!pending || !sameSecret(pending, input.secret.trim())) {
    throw new AppError('VALIDATION', 'This code setup is outdated, please reload the page', { field: 'secret' });
  }
  // SPEC §5: the code is required and has 6 characters, said so (as at sign-in) before an attempt counts.
  await verifyPasscode(services, user, parseInput(passcodeSchema, passcode, 'passcode'), pending);
  // The step just used stays burnt, so the enrollment code cannot be replayed at sign-in.
  const activeAt = new Date();
  // Activated only if still pending with this very secret, with its codes in one transaction: of
  // two activations at once one wins, and the codes it shows are the ones kept.
  const codes = await services.db.transaction(async (tx) => {
    const secrets = user.passcodeSecret && {
      pending: user.passcodeSecret,
      active: sealPasscodeSecret(services, user.id, pending),
    };
    if (!secrets || !(await activatePasscode(tx, user.id, secrets, activeAt))) {
      throw new AppError('VALIDATION', 'The second factor is already active', { field: 'secret' });
    }
    return issueRecoveryCodes(services, user.id, tx);
  });
  // Every other way in was opened without the factor now asked for (perhaps by whoever made the
  // owner turn it on): those sign-in sessions end; this one and API tokens stay, as on a password change.
  await revokeAllOfUser(services, user.id, ['session', 'mfa', 'signin'], caller.viewer?.sessionId);
  // The owner learns of it at the account's address: a taken session could lock them out so.
  await sendSecondFactorNotice(services, user, 'enabled', activeAt);
  return active(codes, codes.length);
}

/** `userRecoveryCodesCreate`: ten new codes replace the old ones; needs a current second factor. */
export async function regenerateRecoveryCodes(caller: Caller, code: string): Promise<string[]> {
  const user = await viewerUser(caller);
  if (!user.passcodeActiveAt) {
    throw new AppError('VALIDATION', 'The second factor is not active', { field: 'passcode' });
  }
  // The set this request replaces, read before its proof: of two requests at once, the later
  // finds it gone and is refused, so the codes the first shows are the ones that work.
  const stamp = await currentRecoveryCodes(caller.services, user.id);
  // A wrong recovery code is named on the argument it came in, as a wrong authenticator code is.
  await verifySecondFactor(caller.services, user, code, 'passcode');
  const codes = await issueRecoveryCodes(caller.services, user.id, caller.services.db, stamp);
  await sendSecondFactorNotice(caller.services, user, 'recovery-codes');
  return codes;
}
