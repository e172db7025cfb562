// POST /hook/:shortKey, the hot path (DESIGN.md "A signal's path"): limits, the cached hook,
// normalize and validate, store (one round trip), broker call with a deadline, answer. Activity
// and counters are written after the answer. Never throws, and never answers 5xx once a signal
// is stored; before that, only our own outage (database down) answers 503, which TradingView
// retries — right, since nothing was stored.
import { createHash } from 'node:crypto';
import { normalizeOrder } from '@router/orders';
import { isUnstorableInput } from '../db/repositories/signals.repository.ts';
import {
  CONNECTOR_INACTIVE,
  hookInactive,
  NO_SIGNALS_LEFT,
  NOT_FOUND,
  pending,
  refusal,
  TOO_MANY,
  UNAVAILABLE,
} from '../modules/signals/answers.ts';
import { draftAnswer, type NewSignalInput, sendToBroker, storeNewSignal } from '../modules/signals/place-signal.ts';
import { repeatAnswer } from '../modules/signals/repeat.ts';
import { newSignalId } from '../modules/signals/signal-id.ts';
import type { Answer, HookEntry } from '../modules/signals/types.ts';
import { countInvalid } from './invalid-requests.ts';
import { PLATFORM_ADDRESSES } from './rate-limit.ts';
import type { HookRuntime } from './runtime.ts';

export interface SignalRequest {
  shortKey: string;
  /** The body as text (any content type); undefined when there was none. */
  body: string | undefined;
  address: string;
  /** performance.now() when the request arrived. */
  startedAt: number;
  hrStart: bigint;
  /** Set here: µs spent waiting for the broker (or for the first of a repeat), not our own time. */
  waitedUs: number;
}

const SHORT_KEY = /^[0-9A-Za-z]{22}$/;

export async function handleSignal(rt: HookRuntime, req: SignalRequest): Promise<Answer> {
  if (!PLATFORM_ADDRESSES.has(req.address) && !rt.byAddress.take(req.address)) return TOO_MANY;
  if (!SHORT_KEY.test(req.shortKey)) return NOT_FOUND;
  let entry: HookEntry | null;
  try {
    const cached = rt.cache.get(req.shortKey);
    entry = cached instanceof Promise ? await cached : cached;
  } catch (error) {
    // Not the error itself: a failed query's message carries its parameters (the hook key).
    rt.services.log.error({ code: databaseCode(error) }, 'hook lookup failed');
    return UNAVAILABLE;
  }
  rt.timings.record('lookup', req.hrStart);
  if (!entry) return NOT_FOUND;
  if (!rt.byHook.take(entry.hookId)) return TOO_MANY;
  if (!entry.isActive) return hookInactive(entry.deactivatedReason);
  if (!entry.connectorActive) return CONNECTOR_INACTIVE;
  if (!entry.broker) return refusal(400, 'ExecutionError', `${entry.title}: this broker is no longer available`);

  const parseStart = process.hrtime.bigint();
  const text = req.body ?? '';
  const request = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const normalized = normalizeOrder(request, { provider: entry.broker.descriptor });
  rt.timings.record('parse', parseStart);
  if (!normalized.ok) return invalid(rt, entry, req, request, normalized.error.message);
  const { order } = normalized;

  const signal: NewSignalInput = {
    id: newSignalId(),
    entry,
    key: order.client_id ? `c:${order.client_id}` : `h:${createHash('sha256').update(request).digest('base64url')}`,
    request,
    order,
    address: req.address,
    startedAt: req.startedAt,
  };
  const deadlineAt = req.startedAt + rt.services.config.HOOK_DEADLINE_MS;
  const storeStart = process.hrtime.bigint();
  let owner: string;
  try {
    const stored = await storeNewSignal(rt, signal);
    if ('noCredit' in stored) return after(rt, entry, req, request, NO_SIGNALS_LEFT);
    owner = stored.owner;
  } catch (error) {
    if (isUnstorableInput(error)) {
      return invalid(
        rt,
        entry,
        req,
        request,
        'body: holds characters that cannot be stored (\\u0000 or a lone surrogate)',
      );
    }
    rt.services.log.error({ err: error }, 'signal not stored');
    return UNAVAILABLE;
  }
  rt.timings.record('store', storeStart);

  let answer: Answer;
  if (entry.isTest && owner === signal.id) {
    answer = draftAnswer(signal.id, entry.title, order);
  } else {
    const waitStart = process.hrtime.bigint();
    if (owner === signal.id) {
      answer = await sendToBroker(rt, signal, deadlineAt);
      rt.timings.record('broker', waitStart);
    } else {
      answer = await repeatAnswer(rt.services, rt.inFlight, entry, owner, deadlineAt).catch(() =>
        pending(owner, entry.title),
      );
    }
    req.waitedUs = Number(process.hrtime.bigint() - waitStart) / 1000;
  }
  return after(rt, entry, req, request, answer, owner);
}

/** Queues the activity entry (after the answer is sent; off the hot path). */
function after(
  rt: HookRuntime,
  entry: HookEntry,
  req: SignalRequest,
  request: string,
  answer: Answer,
  signalId?: string,
): Answer {
  rt.services.counters.signal(entry.providerName, answer);
  rt.writer.order({
    hook: entry,
    address: req.address,
    request,
    response: answer.body,
    elapsedMs: Math.round(performance.now() - req.startedAt),
    ...(signalId ? { signalId } : {}),
    at: new Date(),
  });
  return answer;
}

function invalid(rt: HookRuntime, entry: HookEntry, req: SignalRequest, request: string, message: string): Answer {
  countInvalid(rt, entry, req.address);
  return after(rt, entry, req, request, refusal(400, 'ValidationError', message));
}

function databaseCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}
