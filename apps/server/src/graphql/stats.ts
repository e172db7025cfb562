// SPEC §7 `actionsOrderCounters` and `actionsOrderStats`: the dashboard tile and chart.
import { HIDDEN_SHORT_KEY } from '@router/shared';
import type { CounterRow, StatsRow } from '../db/repositories/stats.repository.ts';
import { getOrderCounters, getOrderStats } from '../modules/stats/order-stats.ts';
import { builder } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { actsAsUser, requireViewer } from './guards.ts';

/** A hook's shortKey is its URL's secret: hidden from an administrator acting as the user (Hook.shortKey). */
const shownShortKey = (ctx: GraphQLContext, shortKey: string | null) =>
  shortKey !== null && actsAsUser(ctx) ? HIDDEN_SHORT_KEY : shortKey;

const OrderCounterRef = builder.objectRef<CounterRow>('OrderCounter').implement({
  description: 'SPEC §3 Order counters: signals received in a window.',
  fields: (t) => ({
    counter: t.exposeInt('counter', { description: 'live signals' }),
    counterTest: t.exposeInt('counterTest', { description: 'test-hook signals' }),
    hookShortKey: t.string({
      nullable: true,
      description: `the hook (isGroup), else null; '${HIDDEN_SHORT_KEY}' in admin proxy mode`,
      resolve: (row, _args, ctx) => shownShortKey(ctx, row.hookShortKey),
    }),
  }),
});

const OrderStatRef = builder.objectRef<StatsRow>('OrderStat').implement({
  description: 'SPEC §3 Order stats: one chart bar.',
  fields: (t) => ({
    createdAt: t.exposeFloat('createdAt', { description: 'bucket start, milliseconds (UTC date_trunc)' }),
    counter: t.exposeInt('counter', { description: 'live signals, failed ones included' }),
    counterError: t.exposeInt('counterError', { description: 'live signals rejected by the broker or failed' }),
    counterTest: t.exposeInt('counterTest', { description: 'test-hook signals' }),
    counterRefused: t.exposeInt('counterRefused', {
      description: 'calls refused before anything was stored (bad body, no credit left), test hooks included',
    }),
    hookShortKey: t.string({
      nullable: true,
      description: `the hook (isGroup), else null; '${HIDDEN_SHORT_KEY}' in admin proxy mode`,
      resolve: (row, _args, ctx) => shownShortKey(ctx, row.hookShortKey),
    }),
  }),
});

builder.queryFields((t) => ({
  actionsOrderCounters: t.field({
    type: [OrderCounterRef],
    description:
      "The caller's signals created from createdAtFrom through createdAtTo: createdAtTo defaults to now and createdAtFrom to 24 hours before createdAtTo, so without them this is the dashboard's 'signals in last 24h'. One total row (hookShortKey null), or one row per hook with isGroup. isTest restricts to test (true) or live (false) hooks.",
    args: {
      code: t.arg.string({ defaultValue: 'Order', description: 'only Order is counted' }),
      isTest: t.arg.boolean(),
      isGroup: t.arg.boolean(),
      createdAtFrom: t.arg.float(),
      createdAtTo: t.arg.float(),
    },
    resolve: (_root, args, ctx) => getOrderCounters(ctx.services, requireViewer(ctx).userId, args),
  }),
  actionsOrderStats: t.field({
    type: [OrderStatRef],
    description:
      "The caller's signals per UTC bucket (interval hour, day, week or month), oldest first. Window: the buckets holding createdAtFrom through createdAtTo (default now); without createdAtFrom, the last `width` buckets (default 24, 30, 8, 12: SPEC §9). Every bucket comes back, empty ones as zeros; with isGroup, one row per hook and bucket that had signals. providerName/providerNames filter by broker.",
    args: {
      interval: t.arg.string({ required: true }),
      createdAtFrom: t.arg.float(),
      createdAtTo: t.arg.float(),
      providerName: t.arg.string(),
      providerNames: t.arg.stringList(),
      width: t.arg.int({ description: 'number of bars when createdAtFrom is absent' }),
      isGroup: t.arg.boolean({ description: 'one row per hook' }),
      timeZone: t.arg.string({
        description: "IANA time zone of the buckets (the trader's own days, weeks, months); default UTC",
      }),
    },
    resolve: (_root, args, ctx) => getOrderStats(ctx.services, requireViewer(ctx).userId, args),
  }),
}));
