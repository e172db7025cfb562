// POST /hook/:shortKey before the signal path: the sender's address limit, the key's shape, the
// hook from the in-process cache (no round trip when cached), the hook's own limit (a signal over
// it is told as signal.refused, as is a body too large to read). Then submitSignal (modules/signals) does the rest.
import { platformOfAddress, SHORT_KEY_PATTERN } from '@router/shared';
import { addressKey } from '../address-key.ts';
import type { HookEntry } from '../modules/hooks/index.ts';
import {
  NOT_FOUND,
  refusalEvent,
  type SignalRuntime,
  type Submitted,
  submitSignal,
  TOO_LARGE,
  TOO_MANY,
  UNAVAILABLE,
} from '../modules/signals/index.ts';
import type { RateLimiter } from './rate-limit.ts';

export interface HookTransport {
  signals: SignalRuntime;
  byHook: RateLimiter<number>;
  byAddress: RateLimiter<string>;
}

export interface HookRequest {
  shortKey: string;
  /** The body as text (any content type); undefined when there was none. */
  body: string | undefined;
  address: string;
  /** performance.now() when the request arrived. */
  receivedAt: number;
  hrStart: bigint;
}

const refused = (answer: Submitted['answer']): Submitted => ({ answer, waitedUs: 0 });

/** Too many for `limiter`: 429, with when to try again. */
const tooMany = <K>(limiter: RateLimiter<K>, key: K): Submitted => ({
  answer: TOO_MANY,
  waitedUs: 0,
  retryAfterS: limiter.retryAfterS(key),
});

/**
 * The sender's address limit: a platform's fixed addresses (TradingView's, TrendSpider's) are
 * shared by all its users, never limited by address (each hook keeps its own limit); others by
 * client (an IPv6 sender by its /64: addressKey).
 */
function overAddressLimit(h: HookTransport, address: string): Submitted | undefined {
  const sender = addressKey(address);
  if (platformOfAddress(address) === null && !h.byAddress.take(sender)) return tooMany(h.byAddress, sender);
  return undefined;
}

export async function receiveSignal(h: HookTransport, req: HookRequest): Promise<Submitted> {
  const limited = overAddressLimit(h, req.address);
  if (limited) return limited;
  if (!SHORT_KEY_PATTERN.test(req.shortKey)) return refused(NOT_FOUND);
  const found = hookOf(h, req.shortKey);
  const entry = found instanceof Promise ? await found : found;
  if (entry === undefined) return refused(UNAVAILABLE);
  h.signals.timings.record('lookup', req.hrStart);
  if (!entry) return refused(NOT_FOUND);
  if (!h.byHook.take(entry.hookId)) {
    tellUnread(h, entry, TOO_MANY);
    return tooMany(h.byHook, entry.hookId);
  }
  return submitSignal(h.signals, { entry, body: req.body, address: req.address, receivedAt: req.receivedAt });
}

/**
 * The sender does not retry a 4xx: the trader hears of a signal refused before its body is read
 * (signal.refused), at most once a minute per hook however many are refused.
 */
function tellUnread(h: HookTransport, entry: HookEntry, answer: Submitted['answer']): void {
  const event = refusalEvent(entry, answer);
  if (event) h.signals.writer.notify(event, entry);
}

/**
 * A body over 64 KiB (413, never read) sent to a known hook: a lost alert (TradingView does not
 * resend), told to its trader as a signal over the hook's rate is. Runs after the answer; a
 * shutdown waits for it (the hook's lookup may still run when the server stops, and the event
 * would go after the activity writer's last flush). Never rejects.
 */
export function tellTooLarge(h: HookTransport, shortKey: string, address: string): Promise<void> {
  // Within the sender's address limit, as any request: no lookup per key scanned this way.
  if (!SHORT_KEY_PATTERN.test(shortKey) || overAddressLimit(h, address)) return Promise.resolve();
  return h.signals.inFlight.hold(
    Promise.resolve(hookOf(h, shortKey)).then((entry) => {
      if (entry) tellUnread(h, entry, TOO_LARGE);
    }),
  );
}

type Found = HookEntry | null | undefined;

/**
 * The hook of `shortKey` from the cache (no promise when cached: no await on the signal's path);
 * null: no such hook; undefined: the lookup failed (logged by its code only: a failed query's
 * message carries its parameters, the hook key).
 */
function hookOf(h: HookTransport, shortKey: string): Found | Promise<Found> {
  const failed = (error: unknown): undefined => {
    h.signals.services.log.error({ code: databaseCode(error) }, 'hook lookup failed');
    return undefined;
  };
  try {
    const cached = h.signals.hooks.get(shortKey);
    return cached instanceof Promise ? cached.catch(failed) : cached;
  } catch (error) {
    return failed(error);
  }
}

function databaseCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}
