// SPEC §7 `actions` and `action`: the caller's activity log ('Last actions' panel).
import { type ActionView, getAction, listActions } from '../modules/actions/list-actions.ts';
import type { TradeLine, TradePhases } from '../modules/actions/trade-line.ts';
import { builder } from './builder.ts';
import { actsAsUser, requireViewer } from './guards.ts';

const TradePhasesRef = builder.objectRef<TradePhases>('TradePhases').implement({
  description: 'Milliseconds per phase of a call; null when the phase did not run (or was not recorded).',
  fields: (t) => ({
    parse: t.exposeFloat('parse', { nullable: true, description: 'reading and normalizing the body' }),
    store: t.exposeFloat('store', { nullable: true, description: 'storing the signal and holding its credit' }),
    broker: t.exposeFloat('broker', { nullable: true, description: 'waiting for the broker' }),
  }),
});

const TradeLineRef = builder.objectRef<TradeLine>('TradeLine').implement({
  description: 'An Order action as a trade line (issue #21).',
  fields: (t) => ({
    hookKey: t.exposeString('hookKey', { nullable: true }),
    hookName: t.exposeString('hookName', { nullable: true }),
    via: t.exposeString('via', {
      nullable: true,
      description: 'Who placed a REST API order: the application\'s name, or the personal token\'s (API token "bot").',
    }),
    providerName: t.exposeString('providerName', { nullable: true }),
    accountId: t.exposeString('accountId', { nullable: true }),
    isTest: t.exposeBoolean('isTest'),
    symbol: t.exposeString('symbol', { nullable: true }),
    side: t.exposeString('side', { nullable: true, description: 'the order action (buy, sell, …)' }),
    quantity: t.exposeFloat('quantity', { nullable: true }),
    orderType: t.exposeString('orderType', { nullable: true }),
    price: t.exposeFloat('price', { nullable: true, description: 'fill price, else the limit or stop price' }),
    result: t.exposeString('result', {
      description: 'placed, filled, rejected, refused, queued (outside the trading windows), unknown or draft (test)',
    }),
    repeat: t.exposeBoolean('repeat', {
      description: 'a repeat of an earlier signal (resent by its sender): answered as the first, nothing placed',
    }),
    checking: t.exposeBoolean('checking', {
      description: 'an unknown result still being looked up at the broker; false once it is final',
    }),
    status: t.exposeString('status', { nullable: true, description: "the broker's status or the refusal's" }),
    elapsedMs: t.exposeFloat('elapsedMs', { nullable: true }),
    phases: t.field({ type: TradePhasesRef, resolve: (line) => line.phases }),
    brokerOrderId: t.exposeString('brokerOrderId', { nullable: true }),
    order: t.exposeString('order', { nullable: true, description: 'the normalized order (JSON text)' }),
    response: t.exposeString('response', { nullable: true, description: 'the answer to the sender (JSON text)' }),
  }),
});

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
    trade: t.field({
      type: TradeLineRef,
      nullable: true,
      description: 'an Order action as a trade line; null for other actions',
      resolve: (action) => action.trade,
    }),
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
      since: t.arg.float({ description: 'only actions at or after this millisecond (a date filter)' }),
      result: t.arg.string({
        description: 'Order actions with this result: placed, filled, rejected, refused, queued, unknown, draft',
      }),
      hookKey: t.arg.string({ description: 'Order actions of this webhook' }),
      providerName: t.arg.string({ description: 'Order actions of this broker' }),
      symbol: t.arg.string({ description: 'Order actions for this symbol (case-insensitive)' }),
    },
    resolve: (_root, args, ctx) => listActions(ctx.services, requireViewer(ctx).userId, args, actsAsUser(ctx)),
  }),
  action: t.field({
    type: ActionRef,
    description: 'One action of the caller; NOT_FOUND otherwise.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => getAction(ctx.services, requireViewer(ctx).userId, id, actsAsUser(ctx)),
  }),
}));
