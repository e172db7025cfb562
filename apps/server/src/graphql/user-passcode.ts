// SPEC §3 Passcode: second-factor enrollment (`userPasscode`, `userPasscodeUpdate`).
import { getPasscode, type PasscodeView, regenerateRecoveryCodes, updatePasscode } from '../modules/users/passcode.ts';
import { builder } from './builder.ts';

const PasscodeRef = builder.objectRef<PasscodeView>('Passcode').implement({
  description: 'TOTP (SHA-1, 6 digits, 30 s). Secret, uri and qr are empty once active: never shown again.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'base32 secret for manual entry' }),
    uri: t.exposeString('uri', { description: 'otpauth:// URI, issuer "Signal Router", label the email' }),
    qr: t.exposeString('qr', { description: 'the text to draw as QR code (the otpauth URI)' }),
    isActive: t.exposeBoolean('isActive'),
    recoveryCodes: t.exposeStringList('recoveryCodes', {
      description: 'ten one-time recovery codes, only in the answer that activated the factor',
    }),
    recoveryCodesLeft: t.exposeInt('recoveryCodesLeft', { description: 'unused recovery codes' }),
  }),
});

builder.queryField('userPasscode', (t) =>
  t.field({
    type: PasscodeRef,
    description: 'The pending secret to enroll (created on first call), or isActive.',
    resolve: (_root, _args, ctx) => getPasscode(ctx),
  }),
);

builder.mutationField('userPasscodeUpdate', (t) =>
  t.field({
    type: PasscodeRef,
    description:
      'secret = the pending secret: activates with a valid code (the answer carries the recovery codes). secret = "": deactivates with a valid code or a recovery code.',
    args: { secret: t.arg.string({ required: true }), passcode: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => updatePasscode(ctx, args),
  }),
);

builder.mutationField('userRecoveryCodesCreate', (t) =>
  t.stringList({
    description:
      'Ten new one-time recovery codes replace the old ones (shown this once); passcode: a current authenticator code or a recovery code.',
    args: { passcode: t.arg.string({ required: true }) },
    resolve: (_root, { passcode }, ctx) => regenerateRecoveryCodes(ctx, passcode),
  }),
);
