// SPEC §7 `actions` and `action`: the caller's activity log ('Last actions' panel).
import { type ActionView, getAction, listActions } from '../modules/actions/list-actions.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

export const ActionRef = builder.objectRef<ActionView>('Action').implement({
  description: 'SPEC §3 Action: one activity-log entry.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    code: t.exposeString('code'),
    address: t.exposeString('address', { nullable: true, description: 'source address of the request' }),
    addressLabel: t.exposeString('addressLabel', {
      nullable: true,
      description: 'the platform the address belongs to (TradingView, TrendSpider), else null',
    }),
    metadata: t.exposeString('metadata', { description: 'JSON text' }),
    createdAt: t.exposeFloat('createdAt', { description: 'milliseconds since the epoch' }),
    description: t.exposeString('description', { description: 'SPEC §4 wording (describeAction of @router/shared)' }),
  }),
});

builder.queryFields((t) => ({
  actions: t.field({
    type: [ActionRef],
    description:
      "The caller's actions, newest first. Paging: pass the createdAt of the last shown action as createdAtFrom to get strictly older ones; a page never ends inside a millisecond, so it may exceed limit when several actions share the last one's millisecond. search (3+ characters, case-insensitive) matches the request text or the description.",
    args: {
      code: t.arg.string(),
      createdAtFrom: t.arg.float(),
      search: t.arg.string(),
      signalId: t.arg.string({
        description: "only the entries of this signal (the signal's own call and its repeats): a notification's link",
      }),
      limit: t.arg.int({ description: 'default 20, at most 100' }),
    },
    resolve: (_root, args, ctx) => listActions(ctx.services, requireViewer(ctx).userId, args),
  }),
  action: t.field({
    type: ActionRef,
    description: 'One action of the caller; NOT_FOUND otherwise.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => getAction(ctx.services, requireViewer(ctx).userId, id),
  }),
}));
