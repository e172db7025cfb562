// SPEC §7 hook calls: hookCreate, hookUpdate (name, risk-control settings), hookDelete, hook(key),
// hooks(connectorKey); the kill switch hooksPause / hooksResume (issue 22); hookActivate and
// Hook.health (issue #21), which SPEC does not list. A personal API token may create and pause
// webhooks (trading and the emergency stop), never weaken them: hookUpdate, hooksResume,
// hookActivate and hookDelete need a dashboard session (dashboardActorOf).
import { HIDDEN_SHORT_KEY } from '@router/shared';
import type { HookView } from '../db/repositories/hooks.repository.ts';
import { requireAdmin } from '../modules/admin/guard.ts';
import {
  activateHook,
  createHook,
  deleteHook,
  type Everyone,
  getHook,
  getHookHealth,
  type HookHealth,
  hookUrl,
  listHooks,
  pauseHooks,
  resumeHooks,
  updateHook,
} from '../modules/hooks/index.ts';
import { builder } from './builder.ts';
import { actorOf, dashboardActorOf } from './connector.ts';
import type { GraphQLContext } from './context.ts';
import { actsAsUser } from './guards.ts';

/**
 * A live hook's URL places orders in the user's account with no sign-in, no X-User and no audit
 * entry, and outlives the proxy: like an API token or a signing secret (requireOwner), it is the
 * owner's alone. A test hook's places nothing, so the administrator may still send test signals.
 */
function visibleShortKey(ctx: GraphQLContext, hook: HookView): string {
  return actsAsUser(ctx) && !hook.isTest ? HIDDEN_SHORT_KEY : hook.shortKey;
}

/**
 * The kill switch of everyone is an admin call (requireAdmin: FORBIDDEN to others and to an
 * administrator's personal API token, which must not stop every user's trading); the admin, also
 * when proxied, for the audit log.
 */
function everyoneOf(ctx: GraphQLContext, everyone: boolean | null | undefined): Everyone | null {
  if (!everyone) return null;
  return { adminId: requireAdmin(ctx) };
}

const HookConnectorRef = builder.objectRef<{ key: string; providerName: string }>('HookConnector').implement({
  description: 'The connector a hook places orders through.',
  fields: (t) => ({ key: t.exposeString('key'), providerName: t.exposeString('providerName') }),
});

const HookHealthRef = builder.objectRef<HookHealth>('HookHealth').implement({
  description: "A webhook's calls since a moment, and how many ended in error.",
  fields: (t) => ({
    calls: t.exposeInt('calls', { description: 'stored signals and refused calls' }),
    errors: t.exposeInt('errors', { description: 'calls rejected by the broker, failed, or refused' }),
    errorRate: t.exposeFloat('errorRate', {
      nullable: true,
      description: 'errors / calls (0 to 1); null without calls',
    }),
  }),
});

export const HookRef = builder.objectRef<HookView>('Hook').implement({
  description: 'SPEC §3 Hook: a webhook placing orders on one broker account.',
  fields: (t) => ({
    key: t.exposeString('key'),
    shortKey: t.string({
      description: `22 base62 characters; the webhook URL ends with it. '${HIDDEN_SHORT_KEY}' for a live hook in admin proxy mode`,
      resolve: (hook, _args, ctx) => visibleShortKey(ctx, hook),
    }),
    name: t.exposeString('name'),
    accountId: t.exposeString('accountId'),
    isActive: t.exposeBoolean('isActive'),
    isTest: t.exposeBoolean('isTest', { description: 'test hooks never reach the broker (status draft)' }),
    deactivatedReason: t.exposeString('deactivatedReason', {
      nullable: true,
      description: "why a deactivated hook was turned off, e.g. 'too many invalid requests'; null when active",
    }),
    connector: t.field({
      type: HookConnectorRef,
      resolve: (hook) => ({ key: hook.connectorKey, providerName: hook.providerName }),
    }),
    calledAt: t.float({
      nullable: true,
      description: 'last call, milliseconds since the epoch',
      resolve: (hook) => hook.calledAt?.getTime() ?? null,
    }),
    health: t.field({
      type: HookHealthRef,
      description:
        "Calls since `since` (milliseconds; at most 48 hours back; default the start of today in UTC): pass the start of the trader's day for 'calls today'",
      args: { since: t.arg.float() },
      resolve: (hook, { since }, ctx) => getHookHealth(ctx.services, hook, since),
    }),
    rules: t.string({
      description: 'The risk-control settings as JSON text (docs/RISK-CONTROLS.md); {} when none',
      resolve: (hook) => JSON.stringify(hook.rules ?? {}),
    }),
    pausedReason: t.exposeString('pausedReason', {
      nullable: true,
      description: 'set while the webhooks are paused (hooksPause): signals are refused with it',
    }),
    url: t.string({
      description: '{PUBLIC_URL}/hook/{shortKey}',
      resolve: (hook, _args, ctx) => hookUrl(ctx.services, visibleShortKey(ctx, hook)),
    }),
  }),
});

builder.queryFields((t) => ({
  hook: t.field({
    type: HookRef,
    description: "One of the caller's hooks; NOT_FOUND 'Hook not found' otherwise.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => getHook(ctx.services, actorOf(ctx), key),
  }),
  hooks: t.field({
    type: [HookRef],
    description: "The hooks of one of the caller's connectors, oldest first.",
    args: { connectorKey: t.arg.string({ required: true }) },
    resolve: (_root, { connectorKey }, ctx) => listHooks(ctx.services, actorOf(ctx), connectorKey),
  }),
}));

builder.mutationFields((t) => ({
  hookCreate: t.field({
    type: HookRef,
    description:
      "A new hook on an account of the caller's connector; a blank name becomes 'Webhook'. accountId may be left out when the connector has one account.",
    args: {
      connectorKey: t.arg.string({ required: true }),
      accountId: t.arg.string(),
      name: t.arg.string(),
      isTest: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) => createHook(ctx.services, actorOf(ctx), args),
  }),
  hookUpdate: t.field({
    type: HookRef,
    description:
      "Renames a hook (a given name must not be blank: 'Required') and/or replaces its risk-control settings (`rules`, a JSON object as text; invalid settings are refused whole). FORBIDDEN to a personal API token: a leaked one must not clear the risk controls.",
    args: { key: t.arg.string({ required: true }), name: t.arg.string(), rules: t.arg.string() },
    resolve: (_root, { key, name, rules }, ctx) =>
      updateHook(ctx.services, dashboardActorOf(ctx), key, { name, rules }),
  }),
  hooksPause: t.int({
    description:
      "Kill switch: pauses every webhook of the caller (with everyone, an admin's, of every user); signals are refused with the reason. Returns how many webhooks were paused.",
    args: { reason: t.arg.string({ required: true }), everyone: t.arg.boolean() },
    resolve: (_root, { reason, everyone }, ctx) => {
      return pauseHooks(ctx.services, actorOf(ctx), reason, everyoneOf(ctx, everyone));
    },
  }),
  hooksResume: t.int({
    description:
      'Ends the pause of hooksPause (with everyone, an admin: of every user). Returns how many resumed. FORBIDDEN to a personal API token, which can pause (an emergency stop) but not lift the stop.',
    args: { everyone: t.arg.boolean() },
    resolve: (_root, { everyone }, ctx) => {
      return resumeHooks(ctx.services, dashboardActorOf(ctx), everyoneOf(ctx, everyone));
    },
  }),
  hookActivate: t.field({
    type: HookRef,
    description:
      "Turns one of the caller's deactivated hooks back on; NOT_FOUND 'Hook not found' otherwise. FORBIDDEN to a personal API token.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => activateHook(ctx.services, dashboardActorOf(ctx), key),
  }),
  hookDelete: t.boolean({
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteHook(ctx.services, dashboardActorOf(ctx), key),
  }),
}));
