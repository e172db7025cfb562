// After-response work of the hook, batched in process: activity entries (one multi-row insert,
// with the signal.refused events of the refusals among them) and hooks.called_at (one update)
// every 200 ms. Cheaper than a job queue, and a crash loses at
// most the entries of the last batch, never a signal (the signals row is the source of truth,
// written before the broker is called). A batch the database cannot take for a moment (an
// outage, a lock held past the statement timeout; not a row it refuses) is kept, up to
// MAX_HELD entries, and written by a later flush instead of being dropped. The request is
// stored once: an entry of a stored signal names it (signalId) and the activity log reads the
// request from its row; a refused call (no row) and a repeat (the row holds the first's body)
// keep theirs here.
import type { BrokerWireRequest } from '@router/brokers';
import type pg from 'pg';
import type { Logger } from 'pino';
import { isDataError } from '../../db/repositories/executor.ts';
import { type ActionRow, insertActions, touchHooks } from '../../db/repositories/hook-activity.repository.ts';
import { failureStreak } from '../../failure-streak.ts';
import type { HookEntry } from '../hooks/index.ts';
import { eventsJson, type NotificationEvent } from '../notifications/events.ts';

const FLUSH_EVERY_MS = 200;
const FLUSH_AT = 500;
/** After a batch failed for an outage: the next try (not at FLUSH_AT, which would hammer it). */
const RETRY_AFTER_MS = 1_000;
/** Entries (and events) kept through an outage at most; the oldest go first beyond it. */
const MAX_HELD = 5_000;
const MAX_REQUEST_TEXT = 8_192;
/**
 * A refusal before the body is read (hook or connector off, rate limit, body too large) is told
 * once a minute per hook and reason (and message): one reason never hides another (the connection
 * switched off right after a 429) within that minute. In process, and across instances by the
 * statement writing it (jsonEventSource: one written by whichever instance within the minute wins).
 */
const QUIET_MS = 60_000;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** An escape jsonb refuses (\u0000, a surrogate) may be in this JSON text. */
const SUSPECT_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/** JSON text PostgreSQL's jsonb accepts: no \u0000, no unpaired surrogates. */
export function storableJson(value: unknown): string {
  const plain = JSON.stringify(value);
  // The replacer visits every value: only for the rare text that needs it.
  if (plain === undefined || !SUSPECT_ESCAPE.test(plain)) return plain;
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' ? item.replace(LONE_SURROGATE, '\ufffd').replaceAll('\u0000', '\ufffd') : item,
  );
}

export interface OrderActivity {
  hook: HookEntry;
  address: string | null;
  /** The signal it stored, or the first one it repeats. */
  signalId?: string;
  /** The body as received; absent when the signal's row holds it (its own call). */
  request?: string;
  response: Record<string, unknown>;
  elapsedMs: number;
  /** Milliseconds per phase (parse, store, broker), for the trade line's split. */
  phases?: Record<string, number>;
  /** The order's request as sent to the broker, redacted and bounded (issue #21 detail view). */
  brokerRequest?: BrokerWireRequest;
  at: Date;
}

type PendingAction = Omit<ActionRow, 'metadata'> & { metadata: Record<string, unknown> };

const cut = (text: string) => (text.length > MAX_REQUEST_TEXT ? `${text.slice(0, MAX_REQUEST_TEXT)}…` : text);

/** The body as JSON when it is, else its text (cut at 8 KiB). */
function readableRequest(request: unknown): unknown {
  if (typeof request !== 'string') return request;
  try {
    return JSON.parse(request);
  } catch {
    return cut(request);
  }
}

/** Metadata as storable JSON; a body too deep to serialize is kept as text. */
function metadataJson(metadata: Record<string, unknown>): string {
  // A stored signal's own entry has no request (its row holds it): no copy without it.
  if (!('request' in metadata)) return storableJson(metadata);
  const { request, ...rest } = metadata;
  try {
    return storableJson({ ...rest, request: readableRequest(request) });
  } catch {
    try {
      return storableJson({ ...rest, request: typeof request === 'string' ? cut(request) : null });
    } catch {
      return '{}';
    }
  }
}

export class ActivityWriter {
  #actions: PendingAction[] = [];
  #events: NotificationEvent[] = [];
  /** `hookId reason message` → when that unread refusal was last told (a switched-off hook may be flooded). */
  #quiet = new Map<string, number>();
  #touched = new Map<number, Date>();
  #timer: NodeJS.Timeout | undefined;
  /** The last batch failed for an outage: flushes wait for the retry timer. */
  #holding = false;
  #closed = false;
  /** Handed to (handTo): what comes later (an invalid count's deactivation entry) goes there. */
  #forward: ActivityWriter | undefined;
  #flushing: Promise<void> = Promise.resolve();
  readonly #pool: pg.Pool;
  readonly #log: Logger;
  /** Tries failing in a row (an outage: one a second) logged as one streak each. */
  readonly #held: ReturnType<typeof failureStreak>;
  readonly #untouched: ReturnType<typeof failureStreak>;

  constructor(pool: pg.Pool, log: Logger) {
    this.#pool = pool;
    this.#log = log;
    this.#held = failureStreak(log, 'hook activity not written yet: kept for the next try');
    this.#untouched = failureStreak(log, 'hook call times not written');
  }

  /** SPEC §3 Action 'Order': the hook, connector, account, request, response and elapsed ms. */
  order(a: OrderActivity): void {
    const { hook } = a;
    this.action({
      userId: hook.userId,
      code: 'Order',
      address: a.address,
      metadata: {
        hook: { key: hook.hookKey, shortKey: hook.shortKey, name: hook.name, ...(hook.via ? { via: hook.via } : {}) },
        connector: { key: hook.connectorKey, providerName: hook.providerName },
        providerName: hook.providerName,
        accountId: hook.accountId,
        isTest: hook.isTest,
        ...(a.signalId ? { signalId: a.signalId } : {}),
        ...(a.request !== undefined ? { request: a.request } : {}),
        response: a.response,
        elapsed: a.elapsedMs,
        ...(a.phases ? { phases: a.phases } : {}),
        ...(a.brokerRequest ? { brokerRequest: a.brokerRequest } : {}),
      },
      createdAt: a.at,
    });
    const last = this.#touched.get(hook.hookId);
    if (!last || last < a.at) this.#touched.set(hook.hookId, a.at);
  }

  /**
   * Queues a notification event, written with the entries queued with it. `unread`: a refusal
   * with no entry of its own, told at most once a minute per hook and reason.
   */
  notify(event: NotificationEvent, unread?: { hookId: number }): void {
    if (this.#forward) {
      this.#forward.notify(event, unread);
      return;
    }
    if (unread) {
      const now = Date.now();
      // Its reason and message: 'refused' alone covers a 429 and a dropped account.
      const why = event.type === 'signal.refused' ? `${event.data.reason} ${event.data.message}` : event.type;
      const key = `${unread.hookId} ${why}`;
      const last = this.#quiet.get(key);
      if (last !== undefined && now - last < QUIET_MS) return;
      if (this.#quiet.size >= 10_000) this.#quiet.clear();
      this.#quiet.set(key, now);
    }
    // Stamped now: the batch (or, through an outage, a later one) writes it after it happened.
    const stamped = event.at ? event : { ...event, at: new Date() };
    this.#events.push(unread ? { ...stamped, quiet: true } : stamped);
    this.#schedule();
  }

  /**
   * A writer that writes nothing itself: its taker writes what it was given (`take`) in a
   * transaction of its own, or hands it to the batched writer (`handTo`). A queued signal's
   * refusal is written with its claim's end (queue-sweeper.ts): told once, though the claim dies.
   */
  static held(pool: pg.Pool, log: Logger): ActivityWriter {
    const writer = new ActivityWriter(pool, log);
    writer.#closed = true;
    return writer;
  }

  /** The entries and events queued, as insertActions' arguments; they leave this writer. */
  take(): { rows: ActionRow[]; events: string } {
    const rows = this.#actions.map((row): ActionRow => ({ ...row, metadata: metadataJson(row.metadata) }));
    const events = eventsJson(this.#events);
    this.#actions = [];
    this.#events = [];
    return { rows, events };
  }

  /** Hands what is queued here, and what comes later, to `writer`, written by its next batch. */
  handTo(writer: ActivityWriter): void {
    this.#forward = writer;
    for (const row of this.#actions) writer.action(row);
    for (const event of this.#events) writer.notify(event);
    for (const [hookId, at] of this.#touched) {
      const last = writer.#touched.get(hookId);
      if (!last || last < at) writer.#touched.set(hookId, at);
    }
    this.#actions = [];
    this.#events = [];
    this.#touched = new Map();
  }

  /** Queues an entry; serialized when written (off the hot path). */
  action(row: PendingAction): void {
    if (this.#forward) {
      this.#forward.action(row);
      return;
    }
    this.#actions.push(row);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed) return;
    if (this.#actions.length >= FLUSH_AT && !this.#holding) void this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.#holding ? RETRY_AFTER_MS : FLUSH_EVERY_MS);
      this.#timer.unref();
    }
  }

  /** Puts a batch the database could not take back ahead of what came since, within MAX_HELD. */
  #hold(actions: PendingAction[], events: NotificationEvent[], error: unknown): void {
    this.#holding = true;
    this.#actions = [...actions, ...this.#actions].slice(-MAX_HELD);
    this.#events = [...events, ...this.#events].slice(-MAX_HELD);
    this.#held.failed(error, { entries: this.#actions.length });
    this.#schedule();
  }

  /** A failure of the rows themselves (one the database refuses), not of the database. */
  static #refusedRows(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return isDataError(error) || (typeof code === 'string' && code.startsWith('54'));
  }

  /** One row the database refuses must not cost the others theirs: each row, then the events, alone. */
  async #writeApart(rows: readonly ActionRow[], json: string): Promise<void> {
    for (const row of rows) {
      await insertActions(this.#pool, [row]).catch((error: unknown) =>
        this.#log.error({ err: error, code: row.code }, 'hook activity entry not written'),
      );
    }
    await insertActions(this.#pool, [], json).catch((error: unknown) =>
      this.#log.error({ err: error }, 'signal.refused events not written'),
    );
  }

  /** Stops retrying a kept batch (the server stops, after its last flush): it is dropped, and logged. */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#actions.length > 0 || this.#events.length > 0) {
      this.#log.error(
        { entries: this.#actions.length, events: this.#events.length },
        'hook activity not written: the database could not take it before the server stopped',
      );
    }
    this.#actions = [];
    this.#events = [];
    this.#closed = true;
  }

  /** Writes what is queued; failures are logged (activity only, the signals are stored). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const actions = this.#actions;
    const touched = this.#touched;
    const events = this.#events;
    this.#actions = [];
    this.#touched = new Map();
    this.#events = [];
    if (actions.length === 0 && touched.size === 0 && events.length === 0) return this.#flushing;
    const write = async () => {
      const rows = actions.map((row): ActionRow => ({ ...row, metadata: metadataJson(row.metadata) }));
      const json = eventsJson(events);
      try {
        await insertActions(this.#pool, rows, json);
        this.#holding = false;
        this.#held.succeeded();
      } catch (error) {
        if (ActivityWriter.#refusedRows(error)) await this.#writeApart(rows, json);
        else this.#hold(actions, events, error);
      }
      await touchHooks(this.#pool, touched).then(
        () => this.#untouched.succeeded(),
        (error: unknown) => this.#untouched.failed(error),
      );
    };
    this.#flushing = this.#flushing.then(write);
    return this.#flushing;
  }
}
