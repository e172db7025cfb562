// Live updates for the screens (issue #21): which user's activity, statistics or webhooks changed.
// Every instance LISTENs (one connection) to activity_added (the actions trigger) and hook_changed
// and tells its own subscribers, so a signal taken by one instance shows on a screen served by
// another. An event says only "look again" and why: the screens reload what they show, through
// the same queries (and access checks) as ever. On session_changed (a sign-out, a password
// change, a role removed, on whichever instance) the streams it may concern check their caller at once.
import type { Logger } from 'pino';
import { type ChannelListener, listenChannels } from '../../db/listen.ts';
import { HOOK_CHANGED_CHANNEL } from '../../db/repositories/hooks.repository.ts';
import { ACTIVITY_ADDED_CHANNEL, hookOwners } from '../../db/repositories/live.repository.ts';
import type { Services } from '../../services.ts';
import { SESSION_CHANGED_CHANNEL, sessionChangeHandlers } from '../auth/session-changes.ts';

export type LiveKind = 'ready' | 'activity' | 'hook' | 'resync';

export interface LiveEvent {
  /** ready: (re)subscribed; activity: new entries; hook: a webhook changed; resync: events may have been lost. */
  kind: LiveKind;
  at: number;
}

export interface Subscriber {
  event(event: LiveEvent): void;
  /** A session may have ended: the stream checks its caller (and ends if signed out). */
  check(): void;
  /** The hub closes (the server stops): the stream ends. */
  end(): void;
}

export class LiveHub {
  readonly #subscribers = new Map<number, Set<Subscriber>>();
  readonly #services: Services;
  readonly #log: Logger;
  #listener: ChannelListener | undefined;
  /** The server closes: a stream subscribing now (its request began before) ends at once. */
  #closed = false;
  /** The first attempt to listen is over: a later (re)connection may have missed events. */
  #tried = false;

  constructor(services: Services) {
    this.#services = services;
    this.#log = services.log;
  }

  /**
   * Tells `subscriber` the user's events until the returned function is called. `listening`
   * resolves once this instance listens (or its first attempt failed: `resync` follows when it
   * does): only then may the stream say 'ready', since a change before it would go untold.
   */
  subscribe(userId: number, subscriber: Subscriber): { listening: Promise<void>; unsubscribe: () => void } {
    if (this.#closed) {
      subscriber.end();
      return { listening: Promise.resolve(), unsubscribe: () => {} };
    }
    const listening = this.#listen();
    const set = this.#subscribers.get(userId) ?? new Set<Subscriber>();
    this.#subscribers.set(userId, set);
    set.add(subscriber);
    const unsubscribe = () => {
      set.delete(subscriber);
      if (set.size === 0 && this.#subscribers.get(userId) === set) this.#subscribers.delete(userId);
    };
    return { listening, unsubscribe };
  }

  publish(userIds: Iterable<number> | 'everyone', kind: LiveKind): void {
    const event: LiveEvent = { kind, at: Date.now() };
    const sets =
      userIds === 'everyone' ? [...this.#subscribers.values()] : [...userIds].map((id) => this.#subscribers.get(id));
    for (const set of sets) for (const subscriber of set ?? []) subscriber.event(event);
  }

  /** session_changed: 'u:<id>' concerns that user's streams; a revoked token ('t:') every stream. */
  #sessionChanged(payload: string): void {
    // This instance's session cache forgets the session first (its own listener may come later).
    sessionChangeHandlers(this.#services.identity.sessions).notification(payload);
    const user = payload.startsWith('u:') ? this.#subscribers.get(Number(payload.slice(2))) : undefined;
    const sets = payload.startsWith('u:') ? [user] : [...this.#subscribers.values()];
    for (const set of sets) for (const subscriber of set ?? []) subscriber.check();
  }

  /**
   * Ends every stream (before the server closes: open streams would hold it) and stops listening;
   * a stream subscribing later (its request was under way) ends at once, opening no connection.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const set of this.#subscribers.values()) for (const subscriber of set) subscriber.end();
    this.#subscribers.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.close();
  }

  /** One listening connection per instance, opened by the first subscriber. */
  #listen(): Promise<void> {
    if (this.#listener) return this.#listener.ready;
    this.#tried = false;
    const listener = listenChannels(
      this.#services.db.$client,
      this.#log,
      [ACTIVITY_ADDED_CHANNEL, HOOK_CHANGED_CHANNEL, SESSION_CHANGED_CHANNEL],
      {
        notification: (channel, payload) => {
          if (channel === ACTIVITY_ADDED_CHANNEL) {
            this.publish(payload ? payload.split(',').map(Number) : 'everyone', 'activity');
          } else if (channel === SESSION_CHANGED_CHANNEL) {
            this.#sessionChanged(payload);
          } else if (payload) {
            hookOwners(this.#services.db, [payload]).then(
              (owners) => this.publish(owners, 'hook'),
              (error: unknown) => this.#log.warn({ err: error }, 'live: hook owner not found'),
            );
          }
        },
        listening: () => {
          // A reconnection (or a first success after a failed first attempt, streams already
          // 'ready') may have missed events: every screen looks again.
          if (this.#tried) this.publish('everyone', 'resync');
        },
      },
    );
    this.#listener = listener;
    return listener.ready.then(() => {
      if (this.#listener === listener) this.#tried = true;
    });
  }
}
