// SPEC §3 User and the `user` query.
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { AppError } from '../errors.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

export interface UserShape {
  key: string;
  group: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export const UserRef = builder.objectRef<UserShape>('User').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    group: t.exposeInt('group', { description: 'bit mask: 1 administrator, 4 customer, 16 professional' }),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    reamazeAuthKey: t.string({ nullable: true, description: 'support-widget auth key', resolve: () => null }),
  }),
});

builder.queryField('user', (t) =>
  t.field({
    type: UserRef,
    description: 'The signed-in user (the proxied user in admin proxy mode).',
    resolve: async (_root, _args, ctx) => {
      const viewer = requireViewer(ctx);
      const [row] = await ctx.services.db.select().from(users).where(eq(users.id, viewer.userId)).limit(1);
      if (!row) throw new AppError('UNAUTHENTICATED', 'Please sign in');
      return row;
    },
  }),
);
