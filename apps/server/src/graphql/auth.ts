// SPEC §7 sign-up, sign-in and sign-out, and which social sign-ins are configured.
// `type` and `credentials` are a String and JSON (SPEC §3 payloads), checked by the services:
//   type "password": credentials {email, password}
//   type "token":    credentials {issuer: "google" | "apple", token: <ID token>, nonce: <the value
//                    whose SHA-256 the token carries>} or {issuer: "id", token: <one-time token>}
//   type "passcode": credentials {passcode} (signin only, with the identity token as Bearer)

import type { SigninResult } from '../modules/auth/complete-signin.ts';
import { confirmEmail } from '../modules/auth/email-confirm.ts';
import { signin } from '../modules/auth/signin.ts';
import { signout } from '../modules/auth/signout.ts';
import { type SignupResult, signup } from '../modules/auth/signup.ts';
import { builder } from './builder.ts';

export const SigninRef = builder.objectRef<SigninResult>('Signin').implement({
  description: 'SPEC §3 Signin result. Send `token` as `Authorization: Bearer`.',
  fields: (t) => ({
    token: t.exposeString('token'),
    issuer: t.exposeString('issuer', {
      description: '"identity": a 5-minute token that only completes the second factor; "user": a full session',
    }),
    email: t.exposeString('email', { nullable: true, description: 'set only to route to the recall screen' }),
  }),
});

const SignupRef = builder.objectRef<SignupResult>('Signup').implement({
  description: 'SPEC §3 Signup result: `id` is the user key.',
  fields: (t) => ({
    id: t.exposeString('key'),
    key: t.exposeString('key'),
    group: t.exposeInt('group'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
  }),
});

interface Providers {
  google: string | undefined;
  apple: string | undefined;
}

const AuthProvidersRef = builder.objectRef<Providers>('AuthProviders').implement({
  description: 'Social sign-ins this server accepts; the web app shows only these buttons.',
  fields: (t) => ({
    google: t.boolean({ resolve: (p) => Boolean(p.google) }),
    apple: t.boolean({ resolve: (p) => Boolean(p.apple) }),
    googleClientId: t.exposeString('google', { nullable: true }),
    appleClientId: t.exposeString('apple', { nullable: true }),
  }),
});

builder.queryField('authProviders', (t) =>
  t.field({
    type: AuthProvidersRef,
    resolve: (_root, _args, ctx) => ({
      google: ctx.services.config.GOOGLE_CLIENT_ID,
      apple: ctx.services.config.APPLE_CLIENT_ID,
    }),
  }),
);

builder.mutationFields((t) => ({
  signup: t.field({
    type: SignupRef,
    description:
      'Password sign-up sends a confirmation link; a taken email answers the same (its owner gets a notice by mail).',
    args: {
      type: t.arg.string({ required: true }),
      credentials: t.arg({ type: 'JSON', required: true }),
      firstName: t.arg.string(),
      lastName: t.arg.string(),
      referrerCode: t.arg.string(),
      promotionCode: t.arg.string({ description: 'codes joined by commas' }),
      stripePriceId: t.arg.string(),
    },
    resolve: (_root, args, ctx) => signup(ctx, args),
  }),
  signin: t.field({
    type: SigninRef,
    args: {
      type: t.arg.string({ required: true }),
      credentials: t.arg({ type: 'JSON', required: true }),
      metadata: t.arg({ type: 'JSON', description: '{firstName, lastName} from Apple' }),
    },
    resolve: (_root, args, ctx) => signin(ctx, args),
  }),
  signout: t.boolean({
    description: 'Ends the session of the Bearer token (not API tokens); always true.',
    resolve: (_root, _args, ctx) => signout(ctx),
  }),
  authEmailConfirm: t.field({
    type: SigninRef,
    description: 'Confirms the email of the link and signs in (SPEC §4).',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => confirmEmail(ctx, token),
  }),
}));
