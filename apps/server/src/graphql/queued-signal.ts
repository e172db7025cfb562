// Queued signals (outsideWindow: "queue", docs/RISK-CONTROLS.md): the caller's list, and cancelling
// one before its window opens.
import { cancelQueued, type QueuedSignalView, queuedSignals } from '../modules/signals/queued.ts';
import { builder } from './builder.ts';
import { actorOf } from './connector.ts';

const QueuedSignalRef = builder.objectRef<QueuedSignalView>('QueuedSignal').implement({
  description: "A signal that arrived outside its webhook's trading windows, held until the next one opens.",
  fields: (t) => ({
    id: t.exposeString('id', { description: "the queued signal's id; the placed signal's is in response" }),
    hookKey: t.exposeString('hookKey'),
    hookName: t.exposeString('hookName'),
    status: t.exposeString('status', {
      description: 'queued, placed, refused (by a control at placement) or cancelled',
    }),
    placeAt: t.exposeFloat('placeAt', { description: 'when its window opens, ms since the epoch' }),
    createdAt: t.exposeFloat('createdAt', { description: 'milliseconds since the epoch' }),
    completedAt: t.exposeFloat('completedAt', { nullable: true }),
    order: t.exposeString('order', { description: 'the order as read on arrival (JSON text)' }),
    request: t.exposeString('request', { description: 'the body as received' }),
    response: t.exposeString('response', { nullable: true, description: 'the answer at placement (JSON text)' }),
  }),
});

builder.queryFields((t) => ({
  queuedSignals: t.field({
    type: [QueuedSignalRef],
    description:
      "The caller's queued signals: those still waiting first, then the latest placed, refused or cancelled.",
    args: { limit: t.arg.int() },
    resolve: (_root, { limit }, ctx) => queuedSignals(ctx.services, actorOf(ctx), limit ?? undefined),
  }),
}));

builder.mutationFields((t) => ({
  queuedSignalCancel: t.field({
    type: QueuedSignalRef,
    description:
      "Cancels one of the caller's queued signals before it is placed; NOT_FOUND 'Queued signal not found' otherwise.",
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, ctx) => cancelQueued(ctx.services, actorOf(ctx), id),
  }),
}));
