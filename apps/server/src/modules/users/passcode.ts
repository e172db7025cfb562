// Second-factor enrollment (SPEC §3 Passcode, §4 "inactive, then active after a valid code").
// `userPasscode` hands out a pending secret (created once, kept until activated); an active
// secret is never shown again. `userPasscodeUpdate(secret, passcode)` activates the pending
// secret with one valid code; with an empty secret and a valid code it deactivates the factor.
import { timingSafeEqual } from 'node:crypto';
import { findUserById, setPasscode, type UserRow, updateUser } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Caller } from '../auth/caller.ts';
import { requireViewer } from '../auth/caller.ts';
import { newPasscodeSecret, openPasscodeSecret, sealPasscodeSecret, totp, verifyPasscode } from '../auth/passcode.ts';

/** `qr` is the text the QR code encodes (the otpauth URI); the web app draws it (qrcode.react). */
export interface PasscodeView {
  secret: string;
  uri: string;
  qr: string;
  isActive: boolean;
}

const ACTIVE: PasscodeView = { secret: '', uri: '', qr: '', isActive: true };

async function viewerUser(caller: Caller): Promise<UserRow> {
  const user = await findUserById(caller.services.db, requireViewer(caller).userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return user;
}

function pendingView(secret: string, email: string): PasscodeView {
  const uri = totp(secret, email).toString();
  return { secret, uri, qr: uri, isActive: false };
}

export async function getPasscode(caller: Caller): Promise<PasscodeView> {
  const { services } = caller;
  const user = await viewerUser(caller);
  if (user.passcodeActiveAt) return ACTIVE;
  const pending = openPasscodeSecret(services, user);
  if (pending) return pendingView(pending, user.email);
  const secret = newPasscodeSecret();
  await setPasscode(services.db, user.id, {
    secret: sealPasscodeSecret(services, user.id, secret),
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
  const user = await viewerUser(caller);
  const passcode = input.passcode.trim();
  if (!input.secret) {
    if (!user.passcodeActiveAt)
      throw new AppError('VALIDATION', 'The second factor is not active', { field: 'secret' });
    await verifyPasscode(services, user, passcode);
    await setPasscode(services.db, user.id, { secret: null, activeAt: null, lastStep: null });
    return { secret: '', uri: '', qr: '', isActive: false };
  }
  if (user.passcodeActiveAt)
    throw new AppError('VALIDATION', 'The second factor is already active', { field: 'secret' });
  const pending = openPasscodeSecret(services, user);
  if (!pending || !sameSecret(pending, input.secret.trim())) {
    throw new AppError('VALIDATION', 'This code setup is outdated, please reload the page', { field: 'secret' });
  }
  await verifyPasscode(services, user, passcode, pending);
  // The step just used stays burnt, so the enrollment code cannot be replayed at sign-in.
  await updateUser(services.db, user.id, { passcodeActiveAt: new Date() });
  return ACTIVE;
}
