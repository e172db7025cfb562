// SPEC §3 Passcode: second-factor enrollment (`userPasscode`, `userPasscodeUpdate`).
import { getPasscode, type PasscodeView, updatePasscode } from '../modules/users/passcode.ts';
import { builder } from './builder.ts';

const PasscodeRef = builder.objectRef<PasscodeView>('Passcode').implement({
  description: 'TOTP (SHA-1, 6 digits, 30 s). Secret, uri and qr are empty once active: never shown again.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'base32 secret for manual entry' }),
    uri: t.exposeString('uri', { description: 'otpauth:// URI, issuer "Signal Router", label the email' }),
    qr: t.exposeString('qr', { description: 'the text to draw as QR code (the otpauth URI)' }),
    isActive: t.exposeBoolean('isActive'),
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
      'secret = the pending secret: activates with a valid code. secret = "": deactivates with a valid code.',
    args: { secret: t.arg.string({ required: true }), passcode: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => updatePasscode(ctx, args),
  }),
);
