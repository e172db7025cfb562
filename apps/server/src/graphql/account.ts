// SPEC §7 `account`: signals left and the credit plan of the caller.
import { type AccountProductView, type AccountView, getAccount } from '../modules/accounts/get-account.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

const AccountProductRef = builder.objectRef<AccountProductView>('AccountProduct').implement({
  description: 'SPEC §3 Account.product: the subscribed plan.',
  fields: (t) => ({
    type: t.exposeInt('type', { description: 'BASE 1, RECURRING 3' }),
    name: t.exposeString('name'),
    credits: t.exposeInt('credits'),
    price: t.exposeInt('price', { description: 'cents' }),
  }),
});

const AccountRef = builder.objectRef<AccountView>('Account').implement({
  description: 'SPEC §3 Account: signal credits.',
  fields: (t) => ({
    type: t.exposeInt('type', { description: 'BASE 1, RECURRING 3' }),
    balance: t.exposeInt('balance', { description: 'signals left' }),
    credits: t.exposeInt('credits', { description: 'one-off credits granted' }),
    recurringCredits: t.exposeInt('recurringCredits'),
    recurringPeriodCredits: t.exposeInt('recurringPeriodCredits'),
    recurringPeriodEnd: t.exposeFloat('recurringPeriodEnd', { nullable: true, description: 'seconds since the epoch' }),
    metadata: t.string({
      description: 'JSON: {creditsTotal, recurring: {cancelAt}, payments: []}',
      resolve: (account) => JSON.stringify(account.metadata),
    }),
    product: t.field({ type: AccountProductRef, nullable: true, resolve: (account) => account.product }),
  }),
});

builder.queryField('account', (t) =>
  t.field({
    type: AccountRef,
    description: "The caller's signal-credit account.",
    resolve: (_root, _args, ctx) => getAccount(ctx.services, requireViewer(ctx).userId),
  }),
);
