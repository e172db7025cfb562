// The sign-up screen's look-up of a referral code (public): whether it is a campaign of ours,
// and whether that campaign still grants its credits.
import { lookUpReferrer, type ReferrerInfo } from '../modules/admin/referrers.ts';
import { builder } from './builder.ts';

const SignupReferrerRef = builder.objectRef<ReferrerInfo>('SignupReferrer').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    name: t.exposeString('name', { nullable: true }),
    providerName: t.exposeString('providerName', { nullable: true }),
    credits: t.exposeInt('credits', { description: 'granted when the new user confirms the email' }),
    isActive: t.exposeBoolean('isActive', { description: 'false: the campaign was deleted and grants nothing' }),
  }),
});

builder.queryField('signupReferrer', (t) =>
  t.field({
    type: SignupReferrerRef,
    nullable: true,
    description: 'The campaign of a referral code or link; null when the code is not ours.',
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, { code }, ctx) => lookUpReferrer(ctx.services, code),
  }),
);
