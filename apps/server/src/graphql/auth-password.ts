// SPEC §7 password operations: strength estimate, reset request and reset.
import { passwordEstimate, requestPasswordReset, resetPassword } from '../modules/auth/password-reset.ts';
import { builder } from './builder.ts';

builder.mutationFields((t) => ({
  authPasswordEstimate: t.float({
    description: 'zxcvbn guesses_log10 of the password; a password must score above 10.',
    args: { password: t.arg.string({ required: true }) },
    resolve: (_root, { password }, ctx) => passwordEstimate(ctx, password),
  }),
  authPasswordResetRequest: t.boolean({
    description: 'Always true: whether the email is registered is never revealed.',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => requestPasswordReset(ctx, args),
  }),
  authPasswordReset: t.boolean({
    description: 'With an active second factor, `passcode` is required: the authenticator code or a recovery code.',
    args: {
      token: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      password2: t.arg.string({ required: true }),
      passcode: t.arg.string(),
    },
    resolve: (_root, args, ctx) => resetPassword(ctx, args),
  }),
}));
