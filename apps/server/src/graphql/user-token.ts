// SPEC §3 UserToken: API secret tokens (`userToken(s)`, `userTokenCreate/Update/Delete`).
import type { SessionRow } from '../db/repositories/session.repository.ts';
import { createToken, deleteToken, getToken, listTokens, updateToken } from '../modules/users/tokens.ts';
import { builder } from './builder.ts';

interface UserAppShape {
  key: string;
  name: string;
}

/** The developer application a token was issued to; filled in with the OAuth apps feature. */
const UserTokenAppRef = builder.objectRef<UserAppShape>('UserTokenApp').implement({
  fields: (t) => ({ key: t.exposeString('key'), name: t.exposeString('name') }),
});

const UserTokenRef = builder.objectRef<SessionRow>('UserToken').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    suffix: t.string({ description: 'last 4 characters of the secret', resolve: (row) => row.suffix ?? '' }),
    createdAt: t.float({ description: 'milliseconds since the epoch', resolve: (row) => row.createdAt.getTime() }),
    metadata: t.field({ type: 'JSON', description: 'caller-defined, e.g. {name}', resolve: (row) => row.metadata }),
    userApp: t.field({ type: UserTokenAppRef, nullable: true, resolve: () => null }),
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
    description: 'isUserApp: tokens granted to developer applications instead of personal ones.',
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
    description: 'True when the token existed; it stops working at once.',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteToken(ctx, key),
  }),
}));
