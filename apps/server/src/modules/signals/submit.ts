// The one way in for a signal (DESIGN.md "A signal's path"): the hook endpoint calls it, and so
// will the REST API's orders and the in-app test signal. A received signal is refused (nothing
// stored) or accepted: stored with its idempotency key and credit in one batched round trip,
// then sent to the broker with a deadline (send.ts). A repeat of a stored signal gets the first
// one's answer (repeat.ts) and places nothing; a client_id used again for another order is
// refused. Never throws; never answers 5xx once a signal is stored (before that, only our own
// outage answers 503, which TradingView retries — right, since nothing was stored). Activity and
// counters are written after the answer.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Broker, BrokerWireRequest } from '@router/brokers';
import { normalizeOrder, type Order, withoutByteOrderMark } from '@router/orders';
import {
  findKeyOwner,
  findSignalOrder,
  findSignalRequest,
  isUnstorableInput,
} from '../../db/repositories/signals.repository.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { HOOK_ACCOUNT_GONE, type HookEntry } from '../hooks/index.ts';
import { type CompiledRules, isRefusal, prepareBody, type RuleRefusal, type TakenCount } from '../hooks/rules/index.ts';
import {
  CONNECTOR_INACTIVE,
  hookInactive,
  hooksPaused,
  KEY_REUSED,
  NO_SIGNALS_LEFT,
  pending,
  refusal,
  ruleRefused,
  UNAVAILABLE,
} from './answers.ts';
import { brokerRefusal } from './broker-check.ts';
import { startFanOut } from './fan-out.ts';
import { countInvalid } from './invalid-requests.ts';
import { STORED, transition } from './lifecycle.ts';
import { queueSignal } from './queue.ts';
import { refusalEvent } from './refusal-event.ts';
import { repeatAnswer } from './repeat.ts';
import { checkOrderLimits, countSignal, rulesBefore } from './rules-gate.ts';
import type { SignalRuntime } from './runtime.ts';
import { type Signal, send } from './send.ts';
import { newSignalId } from './signal-id.ts';
import type { StoreResult } from './signal-store.ts';
import type { Answer } from './types.ts';

export interface SignalInput {
  /** Where it goes: the hook, its connector and broker. */
  entry: HookEntry;
  /** The body as text (any content type); undefined when there was none. */
  body: string | undefined;
  /** The sender's address. */
  address: string;
  /** performance.now() when it arrived: the deadline counts from here. */
  receivedAt: number;
  /** The caller's own idempotency key (the REST API's `Idempotency-Key`): used instead of client_id or the body. */
  idempotencyKey?: string;
  /**
   * The REST API's caller (ApiPrincipal.client): its keys, client_id and body alike, are its own,
   * so another application (or token) sending the same order is not taken for its repeat.
   */
  client?: string;
  /**
   * A queued signal placed at its window's opening (queue-sweeper.ts): its idempotency key, kept
   * from when it was queued, so placing it again is a repeat. Its window was checked by the
   * sweeper, its age when it arrived.
   */
  queuedKey?: string;
  /** The id to store it under (a queued signal's, derived from its queued id); else a new one. */
  signalId?: string;
}

export interface Submitted {
  answer: Answer;
  /** µs spent waiting for the broker (or for the first of a repeat): not our own time. */
  waitedUs: number;
  /** The stored signal it placed, or the first one it repeats; absent when refused. */
  signalId?: string;
  /** A 429's Retry-After, in whole seconds: when the limit has room again. */
  retryAfterS?: number;
}

/** Milliseconds (two decimals) since `start` (process.hrtime.bigint()): a phase of the activity entry. */
const msSince = (start: bigint, end = process.hrtime.bigint()) => Math.round(Number(end - start) / 1e4) / 100;

/** Per-phase milliseconds of one call, kept in its activity entry (the trade line's split). */
type Phases = Partial<Record<'parse' | 'store' | 'broker', number>>;

const UNSTORABLE = 'body: holds characters that cannot be stored (\\u0000 or a lone surrogate)';

/**
 * A reconnect may bring fewer accounts (one left out at the broker's consent, one closed there):
 * a hook of a dropped account is refused here, before any broker call (the adapter would refuse
 * the account as not part of the connection too, that one call only).
 */
export const accountGone = (entry: HookEntry) => !holdsAccount(entry.connector, entry.accountId);
export const ACCOUNT_GONE = refusal(400, 'ExecutionError', HOOK_ACCOUNT_GONE);

export async function submitSignal(rt: SignalRuntime, input: SignalInput): Promise<Submitted> {
  const { entry } = input;
  // Refused before reading the body, with no activity entry: a switched-off hook may be flooded.
  // A queued signal (one per queued row, no flood) was logged 'queued': its end is logged too.
  const logged = input.queuedKey !== undefined ? withoutByteOrderMark(input.body ?? '') : undefined;
  if (!entry.isActive) return refuse(rt, input, hookInactive(entry.deactivatedReason), logged);
  if (!entry.connectorActive) return refuse(rt, input, CONNECTOR_INACTIVE, logged);
  if (accountGone(entry)) return refuse(rt, input, ACCOUNT_GONE, logged);
  const { broker } = entry;
  if (!broker) {
    const gone = refusal(400, 'ExecutionError', `${entry.title}: this broker is no longer available`);
    return refuse(rt, input, gone, logged);
  }

  const request = withoutByteOrderMark(input.body ?? '');
  // Paused (hooksPause): refused, but with its entry, so no signal is lost silently.
  if (entry.pausedReason !== null) return refuse(rt, input, hooksPaused(entry.pausedReason), request);
  const before = entry.rules
    ? rulesBefore(entry.rules, input.address, request, broker.descriptor, input.queuedKey !== undefined)
    : request;
  if (isRefusal(before)) {
    if (before.rule === 'tradingWindows' && entry.rules) {
      if (entry.rules.settings.outsideWindow === 'queue') return queueSignal(rt, input, request);
      const repeat = await windowRepeat(rt, input, entry.rules, broker, request);
      if (repeat) return repeat;
    }
    return refuse(rt, input, ruleRefused(before.rule, before.message), request);
  }

  const parseStart = process.hrtime.bigint();
  const normalized = normalizeOrder(before, { provider: broker.descriptor });
  rt.timings.record('parse', parseStart);
  const phases: Phases = { parse: msSince(parseStart) };
  if (!normalized.ok) {
    return refuse(rt, input, refusal(400, 'ValidationError', normalized.error.message), request, phases);
  }
  const { order } = normalized;
  const key = input.queuedKey ?? signalKey(input, order.client_id, request);
  let count: TakenCount | undefined;
  if (entry.rules) {
    // A limit reached since (the day's orders, a position the first one grew) is no reason to
    // refuse a repeat: it places nothing either way, and it is answered as the first.
    const refusedUnlessRepeat = async (r: RuleRefusal) =>
      (await heldRepeat(rt, input, key, order, request)) ?? refuse(rt, input, ruleRefused(r.rule, r.message), request);
    const refused = await checkOrderLimits(rt, entry, entry.rules, order);
    if (refused) return refusedUnlessRepeat(refused);
    const counted = await countSignal(rt, entry, entry.rules, order);
    if (counted === 'outage') return { answer: UNAVAILABLE, waitedUs: 0 };
    if (isRefusal(counted)) return refusedUnlessRepeat(counted);
    count = counted;
  }

  const afterStore = entry.fanOut.length > 0 ? (first: Signal) => startFanOut(rt, input, first, before) : undefined;
  return place(rt, input, { id: input.signalId ?? newSignalId(), key, order, request, count, afterStore, phases });
}

export interface Placement {
  id: string;
  /** Idempotency key. */
  key: string;
  order: Order;
  request: string;
  /** A maxOrdersPer* count to give back when the signal is not stored as a new one. */
  count?: TakenCount | undefined;
  /** Runs once the signal is stored as new, before the broker is called (fan-out legs). */
  afterStore?: ((signal: Signal) => void) | undefined;
  /** Phases measured before (parse), for the activity entry. */
  phases?: Phases | undefined;
}

/** received → accepted → sent …: stores the signal (or finds the one it repeats), then sends it. */
export async function place(rt: SignalRuntime, input: SignalInput, p: Placement): Promise<Submitted> {
  const { entry } = input;
  const { request, count } = p;
  const phases: Phases = { ...p.phases };
  // A test hook checks what the broker would refuse before sending, as its live twin is refused
  // (nothing stored, like any refusal of its order).
  const refused = entry.isTest
    ? brokerRefusal(
        { broker: entry.broker, title: entry.title, accountId: entry.accountId, order: p.order, signalId: p.id },
        rt.services.log,
      )
    : undefined;
  if (refused) {
    await giveBack(rt, count, p.id);
    return refuse(rt, input, refused, request, phases);
  }
  const signal: Signal = {
    id: p.id,
    state: 'received',
    entry,
    key: p.key,
    request,
    order: p.order,
    address: input.address,
    receivedAt: input.receivedAt,
    count,
  };
  // A test hook's answer is known up front: stored with it, and given.
  const draft = entry.isTest ? draftAnswer(signal) : undefined;
  const storeStart = process.hrtime.bigint();
  let stored: StoreResult;
  try {
    stored = await accept(rt, signal, input.idempotencyKey !== undefined, draft);
  } catch (error) {
    await giveBack(rt, count, signal.id);
    if (isUnstorableInput(error)) {
      return refuse(rt, input, refusal(400, 'ValidationError', UNSTORABLE), request, phases);
    }
    rt.services.log.error({ err: error }, 'signal not stored');
    return { answer: UNAVAILABLE, waitedUs: 0 };
  }
  if ('noCredit' in stored) {
    await giveBack(rt, count, signal.id);
    return refuse(rt, input, NO_SIGNALS_LEFT, request, phases);
  }
  rt.timings.record('store', storeStart);
  phases.store = msSince(storeStart);

  const { owner } = stored;
  // A repeat places nothing: it does not count against the hook's order limits.
  if (owner !== signal.id) {
    await giveBack(rt, count, signal.id);
    return repeatOf(rt, input, owner, signal.order, request, phases);
  }
  p.afterStore?.(signal);
  if (draft) return answered(rt, input, draft, 0, owner, undefined, phases);
  const waitStart = process.hrtime.bigint();
  const answer = await send(rt, signal, input.receivedAt + rt.services.config.HOOK_DEADLINE_MS);
  rt.timings.record('broker', waitStart);
  const waitEnd = process.hrtime.bigint();
  phases.broker = msSince(waitStart, waitEnd);
  const waitedUs = Number(waitEnd - waitStart) / 1000;
  return answered(rt, input, answer, waitedUs, owner, undefined, phases, signal.wire?.orderRequest());
}

/**
 * A repeat of the stored signal `owner` (its key is held): the first one's answer, placing nothing
 * (a client_id used again for another order is refused).
 */
async function repeatOf(
  rt: SignalRuntime,
  input: SignalInput,
  owner: string,
  order: Order,
  request: string,
  phases: Phases = {},
): Promise<Submitted> {
  const reused =
    input.idempotencyKey !== undefined
      ? await idempotencyKeyReused(rt, owner, request)
      : await clientIdReused(rt, input, order, owner);
  if (reused === 'unread') return { answer: UNAVAILABLE, waitedUs: 0 };
  if (reused) return refuse(rt, input, reused, request, phases);
  const { entry } = input;
  const deadlineAt = input.receivedAt + rt.services.config.HOOK_DEADLINE_MS;
  const waitStart = process.hrtime.bigint();
  const answer = await repeatAnswer(rt, entry, owner, deadlineAt).catch(() => pending(owner, entry.title));
  const waitEnd = process.hrtime.bigint();
  phases.broker = msSince(waitStart, waitEnd);
  // A repeat's own body is not in the first one's row: its entry keeps it.
  const waitedUs = Number(waitEnd - waitStart) / 1000;
  return answered(rt, input, answer, waitedUs, owner, request, phases);
}

/**
 * A signal outside the trading windows (refused there) that repeats one placed while a window was
 * open, such as a retry just after the close: answered as that repeat. Its order is read (the
 * symbol map applied, its age not judged) only for its key.
 */
async function windowRepeat(
  rt: SignalRuntime,
  input: SignalInput,
  rules: CompiledRules,
  broker: Broker,
  request: string,
): Promise<Submitted | undefined> {
  const body = rules.readsBody ? prepareBody(rules, request, Date.now(), false) : request;
  if (isRefusal(body)) return undefined;
  const normalized = normalizeOrder(body, { provider: broker.descriptor });
  if (!normalized.ok) return undefined;
  const { order } = normalized;
  return heldRepeat(rt, input, signalKey(input, order.client_id, request), order, request);
}

/**
 * A signal a control would refuse or hold whose key is already held, inside its window, by a
 * stored signal: that signal's repeat, answered as such; undefined when it is no repeat. Asked
 * only then (one read), since controls that depend on the moment (the trading window, the order
 * counts, a position the first one grew) judge a repeat otherwise than they judged the first.
 */
export async function heldRepeat(
  rt: SignalRuntime,
  input: SignalInput,
  key: string,
  order: Order,
  request: string,
): Promise<Submitted | undefined> {
  let owner: string | undefined;
  try {
    owner = await findKeyOwner(rt.services.db.$client, input.entry.hookId, key);
  } catch (error) {
    // Not known to be a repeat: judged as a new signal, as before.
    rt.services.log.error({ err: error }, 'idempotency key not read');
    return undefined;
  }
  return owner === undefined ? undefined : repeatOf(rt, input, owner, order, request);
}

/**
 * A repeat by client_id of another order (a static client_id in an alert template): refused, not
 * answered as the first, which would tell the sender an order was placed that never was. Only a
 * repeat pays this read; the orders are compared normalized, so a resend differing in `time`,
 * spacing or key order is still the same order. The REST API's own Idempotency-Key is compared
 * by idempotencyKeyReused; a body-hash key names the very same body.
 */
async function clientIdReused(
  rt: SignalRuntime,
  input: SignalInput,
  order: Order,
  owner: string,
): Promise<Answer | undefined> {
  const clientId = order.client_id;
  if (input.idempotencyKey !== undefined || clientId === undefined) return undefined;
  let stored: unknown;
  try {
    stored = await findSignalOrder(rt.services.db.$client, owner);
  } catch (error) {
    // Not known to differ: answered as the repeat it most likely is, as before.
    rt.services.log.error({ err: error }, 'repeated signal order not read');
    return undefined;
  }
  if (stored == null || isDeepStrictEqual(stored, JSON.parse(JSON.stringify(order)))) return undefined;
  const windowS = rt.services.config.HOOK_DEDUPE_WINDOW_S;
  return refusal(
    400,
    'ValidationError',
    `client_id ${clientId} was already used for another order within the last ${windowS} s: give each order its own client_id`,
  );
}

/**
 * The REST API's Idempotency-Key sent again with another order: refused (KEY_REUSED), with this
 * call's own entry, not answered (nor logged) as the first order. A retry sends the same order:
 * its JSON compared as values, key order and spacing aside. Only a repeat pays this read; when it
 * fails, nothing is known of the first order's body, so nothing is answered for it ('unread').
 */
async function idempotencyKeyReused(
  rt: SignalRuntime,
  owner: string,
  request: string,
): Promise<Answer | 'unread' | undefined> {
  let stored: unknown;
  try {
    stored = await findSignalRequest(rt.services.db.$client, owner);
  } catch (error) {
    rt.services.log.error({ err: error }, 'repeated signal request not read');
    return 'unread';
  }
  let same: boolean;
  try {
    // jsonb keeps no -0.
    same = isDeepStrictEqual(
      stored,
      JSON.parse(request, (_key, value: unknown) => (Object.is(value, -0) ? 0 : value)),
    );
  } catch {
    same = stored === request;
  }
  return same ? undefined : KEY_REUSED;
}

/** The signal's idempotency key: the caller's own, else client_id, else a hash of the body (per API client). */
export function signalKey(input: SignalInput, clientId: string | undefined, request: string): string {
  const client = input.client === undefined ? '' : `${input.client}:`;
  if (input.idempotencyKey !== undefined) return `i:${client}${input.idempotencyKey}`;
  return clientId ? `c:${client}${clientId}` : `h:${client}${createHash('sha256').update(request).digest('base64url')}`;
}

/** A count taken for maxOrdersPer* goes back when the signal was not stored as a new one. */
// Awaited (only hooks with such a limit, and only then): the next signal must see it given back.
async function giveBack(rt: SignalRuntime, count: TakenCount | undefined, signalId: string): Promise<void> {
  await count
    ?.release(signalId)
    .catch((error: unknown) => rt.services.log.error({ err: error }, 'hook count not released'));
}

/**
 * received → accepted: stored with its key and credit (batched). A repeat or no credit is no move.
 * A REST API Idempotency-Key (`keyed`) is claimed for its 24 hours, every other key for the window.
 */
async function accept(rt: SignalRuntime, s: Signal, keyed: boolean, draft: Answer | undefined): Promise<StoreResult> {
  const { entry } = s;
  const stored = await (keyed ? rt.keyed : rt.signals).store({
    id: s.id,
    hookId: entry.hookId,
    key: s.key,
    userId: entry.userId,
    isTest: entry.isTest,
    connectorId: entry.connectorId,
    accountId: entry.accountId,
    providerName: entry.providerName,
    request: s.request,
    order: JSON.stringify(s.order),
    response: draft ? JSON.stringify(draft.body) : null,
    address: s.address,
    dayCountedAt: s.count?.at ?? null,
    ...(entry.via ? { via: entry.via } : {}),
  });
  if ('owner' in stored && stored.owner === s.id) s.state = transition(s.state, 'accept');
  return stored;
}

/**
 * received → refused: nothing stored. With the body read (`request`), the call gets its activity
 * entry, and a validation refusal counts towards the hook's invalid-request limit. Every refusal
 * emits signal.refused (written with the entries, after the answer; refusals before the body
 * was read at most once a minute per hook).
 */
export function refuse(
  rt: SignalRuntime,
  input: SignalInput,
  answer: Answer,
  request?: string,
  phases?: Phases,
): Submitted {
  transition('received', 'refuse');
  const event = refusalEvent(input.entry, answer);
  if (event) rt.writer.notify(event, request === undefined ? input.entry : undefined);
  if (request === undefined) return { answer, waitedUs: 0 };
  if (answer.body.status === 'ValidationError') countInvalid(rt, input.entry, input.address);
  return answered(rt, input, answer, 0, undefined, request, phases);
}

/** Queues the call's activity entry (written after the answer is sent; off the hot path). */
export function answered(
  rt: SignalRuntime,
  input: SignalInput,
  answer: Answer,
  waitedUs: number,
  signalId?: string,
  request?: string,
  phases?: Phases,
  brokerRequest?: BrokerWireRequest,
): Submitted {
  rt.services.counters.signal(input.entry.providerName, answer);
  rt.writer.order({
    hook: input.entry,
    address: input.address,
    response: answer.body,
    elapsedMs: Math.round(performance.now() - input.receivedAt),
    ...(signalId ? { signalId } : {}),
    ...(request !== undefined ? { request } : {}),
    ...(phases ? { phases } : {}),
    ...(brokerRequest ? { brokerRequest } : {}),
    at: new Date(),
  });
  return { answer, waitedUs, ...(signalId ? { signalId } : {}) };
}

function draftAnswer(s: Signal): Answer {
  return {
    statusCode: 201,
    body: {
      id: s.id,
      status: STORED.draft,
      status_description: `Test webhook: nothing was sent to ${s.entry.title}`,
      order: s.order,
    },
  };
}
