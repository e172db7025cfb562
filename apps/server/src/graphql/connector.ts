// SPEC §7 connector calls: connectorCreate, connectorActivate, connectorUpdate, connectorDelete,
// connector(key), connectors. Credentials and tokens are never part of any answer.
import { AppError } from '../errors.ts';
import {
  type Actor,
  activateConnector,
  type ConnectorCreation,
  type ConnectorView,
  createConnector,
  deleteConnector,
  getConnector,
  listConnectors,
  renameConnectorAccounts,
} from '../modules/connectors/index.ts';
import { builder } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { requireDashboard, requireViewer } from './guards.ts';

const BROKER_LOGIN_OWNER_ONLY =
  'A broker is connected by the account owner only: acting as the user, the broker login would be yours';

/**
 * The activity log's source address of a call: none while an administrator acts as the user, whose
 * log it is (the administrator's address is not theirs to see, as recordActionForHookOwners).
 */
function addressOf(ctx: GraphQLContext): string | null {
  return ctx.viewer?.proxiedBy !== undefined ? null : ctx.ip || null;
}

/** The signed-in caller as the modules' Actor (scoping and the activity log's address). */
export function actorOf(ctx: GraphQLContext): Actor {
  return { userId: requireViewer(ctx).userId, address: addressOf(ctx) };
}

/**
 * The caller as an Actor for what connects, renames or deletes the account's setup (broker
 * connections, webhooks, notification settings): a dashboard session or the admin proxy, never a
 * personal API token, which drives trading and reads, so that a leaked one cannot silently
 * disconnect a broker or remove a webhook (docs/ARCHITECTURE.md, `requireDashboard`).
 */
export function dashboardActorOf(ctx: GraphQLContext): Actor {
  return { userId: requireDashboard(ctx).userId, address: addressOf(ctx) };
}

export const ConnectorRef = builder.objectRef<ConnectorView>('Connector').implement({
  description: 'SPEC §3 Connector: a broker connection of the caller.',
  fields: (t) => ({
    key: t.exposeString('key'),
    providerName: t.exposeString('providerName'),
    accounts: t.string({
      description: 'JSON list of {id, name, dataTitle, dataType, dataCurrency, demo}',
      resolve: (connector) => JSON.stringify(connector.accounts),
    }),
    branch: t.exposeString('branch', { nullable: true }),
    status: t.exposeInt('status', { description: 'bits: RESTRICTED 8, FOLLOWERS 32, NOTIFICATIONS 64' }),
    isActive: t.exposeBoolean('isActive'),
    isDemo: t.exposeBoolean('isDemo'),
    expiresAt: t.exposeFloat('expiresAt', {
      nullable: true,
      description: 'milliseconds since the epoch; null when the connection does not expire',
    }),
  }),
});

const ConnectorCreationRef = builder.objectRef<ConnectorCreation>('ConnectorCreation').implement({
  description: 'SPEC §3 Connector creation result.',
  fields: (t) => ({
    type: t.exposeString('type', { description: "'open' (authorization window at requestUrl) or 'credentials'" }),
    credentials: t.exposeStringList('credentials', {
      description:
        "credential field names, in the order connectorActivate takes them; for 'open' the callback's query parameter",
    }),
    referrerBase: t.exposeString('referrerBase', { nullable: true }),
    requestUrl: t.exposeString('requestUrl', {
      nullable: true,
      description: "the broker's authorization URL (with state)",
    }),
    redirectUrl: t.exposeString('redirectUrl', { nullable: true, description: '{PUBLIC_URL}/callback/{providerName}' }),
    help: t.exposeString('help', { nullable: true }),
    metadata: t.exposeString('metadata', { description: "JSON: {title} and for 'open' the pending connector {key}" }),
  }),
});

builder.queryFields((t) => ({
  connector: t.field({
    type: ConnectorRef,
    description: "One of the caller's connectors; NOT_FOUND 'Connector not found' otherwise.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => getConnector(ctx.services, actorOf(ctx), key),
  }),
  connectors: t.field({
    type: [ConnectorRef],
    description: "The caller's connectors, oldest first (pending OAuth connections excluded).",
    resolve: (_root, _args, ctx) => listConnectors(ctx.services, actorOf(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  connectorCreate: t.field({
    type: ConnectorCreationRef,
    description: "Starts a connection: the credential form, or for 'open' providers the authorization URL.",
    args: { providerName: t.arg.string({ required: true }) },
    resolve: (_root, { providerName }, ctx) => createConnector(ctx.services, dashboardActorOf(ctx), providerName),
  }),
  connectorActivate: t.field({
    type: ConnectorRef,
    description:
      "Connects: credentials in the order of ConnectorCreation.credentials, or for 'open' providers [code, state] from /callback/{providerName}. Reconnecting an account already connected reactivates its connector.",
    args: {
      providerName: t.arg.string({ required: true }),
      credentials: t.arg.stringList({ required: true }),
    },
    resolve: (_root, { providerName, credentials }, ctx) => {
      // A broker login given while an administrator acts as the user (X-User) would be the
      // administrator's: their broker session in the OAuth window, or keys through their hands.
      if (credentials.length > 0 && ctx.viewer?.proxiedBy !== undefined) {
        throw new AppError('FORBIDDEN', BROKER_LOGIN_OWNER_ONLY);
      }
      return activateConnector(ctx.services, dashboardActorOf(ctx), providerName, credentials);
    },
  }),
  connectorUpdate: t.field({
    type: ConnectorRef,
    description: 'Renames accounts: accounts is a JSON list of {id, name}; an empty name is skipped.',
    args: { key: t.arg.string({ required: true }), accounts: t.arg.string({ required: true }) },
    resolve: (_root, { key, accounts }, ctx) =>
      renameConnectorAccounts(ctx.services, dashboardActorOf(ctx), key, accounts),
  }),
  connectorDelete: t.boolean({
    description: 'Deletes the connector with its hooks and notification settings.',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteConnector(ctx.services, dashboardActorOf(ctx), key),
  }),
}));
