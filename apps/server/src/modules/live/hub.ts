// Live updates for the screens (issue #21): which user's activity, statistics or webhooks changed.
// Every instance LISTENs (one connection) to activity_added (the actions trigger) and hook_changed
// and tells its own subscribers, so a signal taken by one instance shows on a screen served by
// another. An event says only "look again" and why: the screens reload what they show, through
// the same queries (and access checks) as ever.
import type { Logger } from 'pino';
import { type ChannelListener, listenChannels } from '../../db/listen.ts';
import { HOOK_CHANGED_CHANNEL } from '../../db/repositories/hooks.repository.ts';
import { ACTIVITY_ADDED_CHANNEL, hookOwners } from '../../db/repositories/live.repository.ts';
import type { Services } from '../../services.ts';

export type LiveKind = 'ready' | 'activity' | 'hook' | 'resync';

export interface LiveEvent {
  /** ready: (re)subscribed; activity: new entries; hook: a webhook changed; resync: events may have been lost. */
  kind: LiveKind;
  at: number;
}

export interface Subscriber {
  event(event: LiveEvent): void;
  /** The hub closes (the server stops): the stream ends. */
  end(): void;
}

export class LiveHub {
  readonly #subscribers = new Map<number, Set<Subscriber>>();
  readonly #services: Services;
  readonly #log: Logger;
  #listener: ChannelListener | undefined;
  #listenedOnce = false;

  constructor(services: Services) {
    this.#services = services;
    this.#log = services.log;
  }

  /** Tells `subscriber` the user's events until the returned function is called. */
  subscribe(userId: number, subscriber: Subscriber): () => void {
    this.#listen();
    const set = this.#subscribers.get(userId) ?? new Set<Subscriber>();
    this.#subscribers.set(userId, set);
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.#subscribers.get(userId) === set) this.#subscribers.delete(userId);
    };
  }

  publish(userIds: Iterable<number> | 'everyone', kind: LiveKind): void {
    const event: LiveEvent = { kind, at: Date.now() };
    const sets =
      userIds === 'everyone' ? [...this.#subscribers.values()] : [...userIds].map((id) => this.#subscribers.get(id));
    for (const set of sets) for (const subscriber of set ?? []) subscriber.event(event);
  }

  /** Ends every stream (before the server closes: open streams would hold it) and stops listening. */
  async close(): Promise<void> {
    for (const set of this.#subscribers.values()) for (const subscriber of set) subscriber.end();
    this.#subscribers.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.close();
  }

  /** One listening connection per instance, opened by the first subscriber. */
  #listen(): void {
    if (this.#listener) return;
    this.#listener = listenChannels(
      this.#services.db.$client,
      this.#log,
      [ACTIVITY_ADDED_CHANNEL, HOOK_CHANGED_CHANNEL],
      {
        notification: (channel, payload) => {
          if (channel === ACTIVITY_ADDED_CHANNEL) {
            this.publish(payload ? payload.split(',').map(Number) : 'everyone', 'activity');
          } else if (payload) {
            hookOwners(this.#services.db, [payload]).then(
              (owners) => this.publish(owners, 'hook'),
              (error: unknown) => this.#log.warn({ err: error }, 'live: hook owner not found'),
            );
          }
        },
        listening: () => {
          // A reconnection may have missed events: every screen looks again.
          if (this.#listenedOnce) this.publish('everyone', 'resync');
          this.#listenedOnce = true;
        },
      },
    );
  }
}
