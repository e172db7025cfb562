// SPEC §3 User: the `user` query, `userUpdate` and the password change of settings.
import type { UserRow } from '../db/repositories/user.repository.ts';
import { changePassword } from '../modules/users/password.ts';
import { getUser, pendingEmail, updateProfile } from '../modules/users/user.ts';
import { builder } from './builder.ts';

export type UserShape = Pick<UserRow, 'key' | 'group' | 'email' | 'firstName' | 'lastName'>;

export const UserRef = builder.objectRef<UserShape>('User').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    group: t.exposeInt('group', { description: 'bit mask: 1 administrator, 4 customer, 16 professional' }),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    pendingEmail: t.string({
      nullable: true,
      description: 'a new email asked for by userUpdate, applied once the link sent to it is opened',
      resolve: (user, _args, ctx) => pendingEmail(ctx, user.key),
    }),
    reamazeAuthKey: t.string({ nullable: true, description: 'support-widget auth key', resolve: () => null }),
  }),
});

builder.queryField('user', (t) =>
  t.field({
    type: UserRef,
    description: 'The signed-in user (the proxied user in admin proxy mode).',
    resolve: (_root, _args, ctx) => getUser(ctx),
  }),
);

builder.mutationField('userUpdate', (t) =>
  t.field({
    type: UserRef,
    description: 'Omitted fields stay. A new email is applied when the link sent to it is opened.',
    args: { email: t.arg.string(), firstName: t.arg.string(), lastName: t.arg.string() },
    resolve: (_root, args, ctx) => updateProfile(ctx, args),
  }),
);

builder.mutationField('userPasswordUpdate', (t) =>
  t.boolean({
    description: 'Changes the password (the current one is required) and ends every other session of the user.',
    args: {
      password: t.arg.string({ required: true, description: 'the current password' }),
      newPassword: t.arg.string({ required: true }),
      newPassword2: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) => changePassword(ctx, args),
  }),
);
