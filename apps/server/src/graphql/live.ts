// The `live` subscription (issue #21): tells a signed-in screen when to look again. Served over
// Server-Sent Events by GraphQL Yoga (Accept: text/event-stream). Its first event is 'ready'.
// Before each later event the caller is authenticated again: a stream whose session was signed
// out, reset or revoked (or whose proxy ended, or whose user lost the customer bit) ends instead;
// a session_changed notification has the streams it may concern check at once, event or not.
import { GROUP } from '@router/shared';
import { Repeater } from 'graphql-yoga';
import type { LiveEvent } from '../modules/live/hub.ts';
import { builder } from './builder.ts';
import type { GraphQLContext, Viewer } from './context.ts';
import { requireViewer } from './guards.ts';

/** The request's caller is still the one who subscribed, with the customer bit. */
async function stillViewer(ctx: GraphQLContext, viewer: Viewer): Promise<boolean> {
  const now = await ctx.reauthenticate();
  return (
    now !== null &&
    now.userId === viewer.userId &&
    now.sessionId === viewer.sessionId &&
    now.proxiedBy === viewer.proxiedBy &&
    (now.group & GROUP.CUSTOMER) !== 0
  );
}

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
      const viewer = requireViewer(ctx);
      return new Repeater<LiveEvent>(async (push, stop) => {
        // Checked one after another, so events keep their order; `undefined` only checks.
        let checked = Promise.resolve();
        const next = (event?: LiveEvent) => {
          checked = checked.then(async () => {
            if (!(await stillViewer(ctx, viewer))) stop();
            else if (event) void push(event);
          });
        };
        const { listening, unsubscribe } = ctx.live.subscribe(viewer.userId, {
          event: next,
          check: () => next(),
          end: () => stop(),
        });
        // 'ready' once the instance listens: a screen reloading on it misses nothing after it.
        checked = listening.then(async () => {
          await push({ kind: 'ready', at: Date.now() });
        });
        await stop;
        unsubscribe();
      });
    },
    resolve: (event) => event,
  }),
}));
