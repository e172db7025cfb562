// paperAccount(connectorKey, accountId) and paperAccountReset(connectorKey, accountId): a paper
// account's balances, positions, open orders and recent fills, and its reset. Scoped to the
// caller's own connectors: another user's key answers NOT_FOUND and changes nothing.
import type { PaperFillView, PaperOrderView, PaperPositionView } from '@router/brokers';
import { getPaperAccount, type PaperAccountResult, resetPaperAccount } from '../modules/paper/index.ts';
import { builder } from './builder.ts';
import { actorOf, dashboardActorOf } from './connector.ts';

const PaperPositionRef = builder.objectRef<PaperPositionView>('PaperPosition').implement({
  description: 'A position of a paper account, valued at the simulated price now.',
  fields: (t) => ({
    symbol: t.exposeString('symbol'),
    class: t.exposeString('class'),
    quantity: t.exposeFloat('quantity', { description: 'negative for a short position' }),
    averagePrice: t.exposeFloat('averagePrice'),
    price: t.exposeFloat('price'),
    marketValue: t.exposeFloat('marketValue', { description: 'quantity × price × multiplier (USD)' }),
    unrealizedPnl: t.exposeFloat('unrealizedPnl', { description: 'USD' }),
  }),
});

const PaperLegRef = builder.objectRef<NonNullable<PaperOrderView['legs']>[number]>('PaperLeg').implement({
  description: 'A leg of a multi-leg paper order: its contracts per unit of the order.',
  fields: (t) => ({
    symbol: t.exposeString('symbol'),
    action: t.exposeString('action'),
    ratio: t.exposeFloat('ratio'),
  }),
});

const PaperOpenOrderRef = builder.objectRef<PaperOrderView>('PaperOpenOrder').implement({
  description: 'A resting order of a paper account.',
  fields: (t) => ({
    id: t.exposeString('id'),
    clientOrderId: t.exposeString('clientOrderId', { nullable: true, description: 'the signal id' }),
    symbol: t.exposeString('symbol'),
    class: t.exposeString('class'),
    action: t.exposeString('action'),
    side: t.exposeString('side'),
    type: t.exposeString('type'),
    quantity: t.exposeFloat('quantity'),
    limitPrice: t.exposeFloat('limitPrice', { nullable: true, description: 'for a multi-leg order, the net per unit' }),
    stopPrice: t.exposeFloat('stopPrice', { nullable: true }),
    duration: t.exposeString('duration'),
    statusDescription: t.exposeString('statusDescription'),
    createdAt: t.exposeFloat('createdAt', { description: 'milliseconds since the epoch' }),
    legs: t.field({ type: [PaperLegRef], resolve: (order) => order.legs ?? [] }),
  }),
});

const PaperFillRef = builder.objectRef<PaperFillView>('PaperFill').implement({
  description: 'A filled order of a paper account.',
  fields: (t) => ({
    id: t.exposeString('id'),
    clientOrderId: t.exposeString('clientOrderId', { nullable: true, description: 'the signal id' }),
    symbol: t.exposeString('symbol'),
    class: t.exposeString('class'),
    side: t.exposeString('side'),
    quantity: t.exposeFloat('quantity'),
    price: t.exposeFloat('price', { description: 'per unit; a multi-leg order: its net' }),
    filledAt: t.exposeFloat('filledAt', { description: 'milliseconds since the epoch' }),
    description: t.exposeString('description'),
  }),
});

const PaperAccountRef = builder.objectRef<PaperAccountResult>('PaperAccount').implement({
  description: 'A simulated cash account of the paper broker, as of `asOf`.',
  fields: (t) => ({
    connectorKey: t.exposeString('connectorKey'),
    accountId: t.exposeString('id'),
    name: t.exposeString('name'),
    currency: t.exposeString('currency'),
    startingCash: t.exposeFloat('startingCash'),
    cash: t.exposeFloat('cash'),
    equity: t.exposeFloat('equity', { description: 'cash plus positions at the price now' }),
    buyingPower: t.exposeFloat('buyingPower', { description: 'what a new position may use now' }),
    asOf: t.exposeFloat('asOf', { description: 'milliseconds since the epoch' }),
    resetAt: t.exposeFloat('resetAt', { nullable: true, description: 'last reset, milliseconds since the epoch' }),
    positions: t.field({ type: [PaperPositionRef], resolve: (account) => account.positions }),
    openOrders: t.field({
      type: [PaperOpenOrderRef],
      description: 'the newest 100 open orders; openOrderCount counts them all',
      resolve: (account) => account.openOrders,
    }),
    openOrderCount: t.exposeInt('openOrderCount'),
    fills: t.field({
      type: [PaperFillRef],
      description: 'the newest 50 fills since the last reset',
      resolve: (account) => account.fills,
    }),
  }),
});

builder.queryFields((t) => ({
  paperAccount: t.field({
    type: PaperAccountRef,
    description: "A paper account of the caller's paper connector; NOT_FOUND otherwise.",
    args: { connectorKey: t.arg.string({ required: true }), accountId: t.arg.string({ required: true }) },
    resolve: (_root, { connectorKey, accountId }, ctx) =>
      getPaperAccount(ctx.services, actorOf(ctx), connectorKey, accountId),
  }),
}));

builder.mutationFields((t) => ({
  paperAccountReset: t.field({
    type: PaperAccountRef,
    description:
      "Resets a paper account to its starting cash: open orders canceled, positions cleared. FORBIDDEN to a personal API token (it wipes the account's paper history).",
    args: { connectorKey: t.arg.string({ required: true }), accountId: t.arg.string({ required: true }) },
    resolve: (_root, { connectorKey, accountId }, ctx) =>
      resetPaperAccount(ctx.services, dashboardActorOf(ctx), connectorKey, accountId),
  }),
}));
