// SPEC §3 UserToken: API secret tokens (`userToken(s)`, `userTokenCreate/Update/Delete`).
import type { UserTokenView } from '../modules/oauth/grants.ts';
import { createToken, deleteToken, getToken, listTokens, updateToken } from '../modules/users/tokens.ts';
import { builder } from './builder.ts';

interface UserAppShape {
  key: string;
  name: string;
}

/** The developer application a token was granted to (SPEC §3 UserToken.userApp). */
const UserTokenAppRef = builder.objectRef<UserAppShape>('UserTokenApp').implement({
  fields: (t) => ({ key: t.exposeString('key'), name: t.exposeString('name') }),
});

const UserTokenRef = builder.objectRef<UserTokenView>('UserToken').implement({
  description: 'A personal API token, or (with userApp) an application the user authorized.',
  fields: (t) => ({
    key: t.exposeString('key'),
    suffix: t.exposeString('suffix', { description: 'last 4 characters of the secret; empty for an application' }),
    createdAt: t.float({ description: 'milliseconds since the epoch', resolve: (row) => row.createdAt.getTime() }),
    metadata: t.field({
      type: 'JSON',
      description: 'caller-defined, e.g. {name}; for an application {scopes}',
      resolve: (row) => row.metadata,
    }),
    userApp: t.field({ type: UserTokenAppRef, nullable: true, resolve: (row) => row.userApp }),
  }),
});

const UserTokenSecretRef = builder.objectRef<{ key: string; secret: string }>('UserTokenSecret').implement({
  description: 'The secret is shown only here, once; use it as `Authorization: Bearer`.',
  fields: (t) => ({ key: t.exposeString('key'), secret: t.exposeString('secret') }),
});

builder.queryFields((t) => ({
  userToken: t.field({
    type: UserTokenRef,
    nullable: true,
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => getToken(ctx, key),
  }),
  userTokens: t.field({
    type: [UserTokenRef],
    description: 'isUserApp: the applications the caller authorized (one per application) instead of personal tokens.',
    args: { isUserApp: t.arg.boolean() },
    resolve: (_root, { isUserApp }, ctx) => listTokens(ctx, isUserApp),
  }),
}));

builder.mutationFields((t) => ({
  userTokenCreate: t.field({
    type: UserTokenSecretRef,
    args: { metadata: t.arg({ type: 'JSON', description: 'a JSON object, e.g. {name}' }) },
    resolve: (_root, { metadata }, ctx) => createToken(ctx, metadata),
  }),
  userTokenUpdate: t.field({
    type: UserTokenRef,
    description: 'Replaces the metadata (renaming).',
    args: { key: t.arg.string({ required: true }), metadata: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, { key, metadata }, ctx) => updateToken(ctx, key, metadata),
  }),
  userTokenDelete: t.boolean({
    description: 'True when the personal token or the authorized application existed; its access stops at once.',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteToken(ctx, key),
  }),
}));
