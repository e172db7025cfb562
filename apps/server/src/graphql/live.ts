// The `live` subscription (issue #21): tells a signed-in screen when to look again. Served over
// Server-Sent Events by GraphQL Yoga (Accept: text/event-stream). Its first event is 'ready'.
import { Repeater } from 'graphql-yoga';
import type { LiveEvent } from '../modules/live/hub.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

const LiveEventRef = builder.objectRef<LiveEvent>('LiveEvent').implement({
  description: "A change to the caller's screens: reload what they show.",
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description:
        'ready (subscribed), activity (new entries, stats and webhook calls), hook (a webhook changed), resync (events may have been missed)',
    }),
    at: t.exposeFloat('at', { description: 'milliseconds since the epoch' }),
  }),
});

builder.subscriptionFields((t) => ({
  live: t.field({
    type: LiveEventRef,
    description: "The caller's activity, stats and webhooks changed; first event 'ready'.",
    subscribe: (_root, _args, ctx) => {
      const { userId } = requireViewer(ctx);
      return new Repeater<LiveEvent>(async (push, stop) => {
        await push({ kind: 'ready', at: Date.now() });
        const unsubscribe = ctx.live.subscribe(userId, { event: (event) => void push(event), end: () => stop() });
        await stop;
        unsubscribe();
      });
    },
    resolve: (event) => event,
  }),
}));
