// The `live` subscription (issue #21): tells a signed-in screen when to look again. Served over
// Server-Sent Events by GraphQL Yoga (Accept: text/event-stream). Its first event is 'ready'.
// Before each later event the caller is authenticated again: a stream whose session was signed
// out, reset or revoked (or whose proxy ended, or whose user lost the customer bit) ends instead;
// a session_changed notification has the streams it may concern check at once, event or not.
import { GROUP } from '@router/shared';
import { Repeater } from 'graphql-yoga';
import type { LiveEvent, LiveKind } from '../modules/live/hub.ts';
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

/**
 * The least time between two events of one stream: changes told meanwhile wait and go as one. A
 * flood of signals (or a burst of notifications read in several chunks) reloads a screen at most
 * four times a second, not once per chunk; the first event after a quiet spell goes at once.
 */
export const LIVE_MIN_GAP_MS = 250;

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
        // An event says only "look again": kinds told while the caller is being checked (or the
        // screen has not taken the last one) wait once each, so a burst of changes costs one check
        // and one reload, not one per change. Checked one after another, events keep their order,
        // LIVE_MIN_GAP_MS apart at least.
        const waiting = new Map<LiveKind, LiveEvent>();
        let pushedAt = Number.NEGATIVE_INFINITY;
        let recheck = false;
        let running = true; // until 'ready' is sent
        const drain = async () => {
          if (running) return;
          running = true;
          try {
            while (recheck || waiting.size > 0) {
              recheck = false;
              if (!(await stillViewer(ctx, viewer))) return void stop();
              const [first] = waiting.values();
              if (!first) continue;
              const wait = pushedAt + LIVE_MIN_GAP_MS - Date.now();
              if (wait > 0) {
                // What comes meanwhile joins it; the caller is checked again before it goes.
                await new Promise((resolve) => setTimeout(resolve, wait));
                recheck = true;
                continue;
              }
              waiting.delete(first.kind);
              await push(first);
              pushedAt = Date.now();
            }
          } finally {
            running = false;
          }
        };
        const { listening, unsubscribe } = ctx.live.subscribe(viewer.userId, {
          event: (event) => {
            waiting.set(event.kind, event);
            void drain();
          },
          check: () => {
            recheck = true;
            void drain();
          },
          end: () => stop(),
        });
        // 'ready' once the instance listens: a screen reloading on it misses nothing after it.
        void listening.then(async () => {
          await push({ kind: 'ready', at: Date.now() });
          running = false;
          await drain();
        });
        await stop;
        unsubscribe();
      });
    },
    resolve: (event) => event,
  }),
}));
