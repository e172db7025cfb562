// SPEC §3 UserApp, §7 `userApp`, `userApps`, `userAppCreate/Update/Delete` (and `userAppSecretRotate`): developer
// applications (OAuth clients; `key` is the client_id). Changes need the professional group.
import type { UserAppRow } from '../db/repositories/user-app.repository.ts';
import { createApp, deleteApp, getApp, listApps, rotateAppSecret, updateApp } from '../modules/oauth/apps.ts';
import { builder } from './builder.ts';

const UserAppRef = builder.objectRef<UserAppRow>('UserApp').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'the OAuth client_id' }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    redirectUrl: t.exposeString('redirectUrl', { description: 'the one redirect URI, matched exactly' }),
    createdAt: t.float({ description: 'milliseconds since the epoch', resolve: (row) => row.createdAt.getTime() }),
  }),
});

const UserAppSecretRef = builder.objectRef<{ key: string; secret: string }>('UserAppSecret').implement({
  description: 'The client secret is shown only here, once (at creation, and at each replacement).',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'the OAuth client_id' }),
    secret: t.exposeString('secret', { description: 'the OAuth client_secret' }),
  }),
});

builder.queryFields((t) => ({
  userApp: t.field({
    type: UserAppRef,
    nullable: true,
    description: "One of the caller's applications; null for an unknown key or another user's.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => getApp(ctx, key),
  }),
  userApps: t.field({
    type: [UserAppRef],
    description: "The caller's applications, newest first.",
    resolve: (_root, _args, ctx) => listApps(ctx),
  }),
}));

builder.mutationFields((t) => ({
  userAppCreate: t.field({
    type: UserAppSecretRef,
    description: 'Professionals only. Callback URL: https (http only for localhost), at most 256 characters.',
    args: {
      name: t.arg.string({ required: true }),
      description: t.arg.string(),
      redirectUrl: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) => createApp(ctx, args),
  }),
  userAppUpdate: t.field({
    type: UserAppRef,
    description: 'Professionals only. metadata: the fields to change, {name?, description?, redirectUrl?}.',
    args: { key: t.arg.string({ required: true }), metadata: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, { key, metadata }, ctx) => updateApp(ctx, key, metadata),
  }),
  userAppSecretRotate: t.field({
    type: UserAppSecretRef,
    description:
      "Professionals only. A new client secret, answered once; the previous one is refused from the next token request, while users' grants and tokens stay. The owner's own dashboard session only: FORBIDDEN while an administrator acts as the user, and to a personal API token.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => rotateAppSecret(ctx, key),
  }),
  userAppDelete: t.boolean({
    description: 'Professionals only. Deletes the application and ends every access granted to it.',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteApp(ctx, key),
  }),
}));
