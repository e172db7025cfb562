// One WebSocket to a Rithmic plant: requests tagged in user_msg and answered by the messages that
// echo the tag (parts with rq_handler_rp_code, then a last one with rp_code), the snapshot
// notifications a show-orders or history request replays, live order notifications, heartbeats.
// Nothing is ever resent: a request that may have changed something (an order, a cancel) and
// loses its answer fails with outcomeUnknown; reconciliation looks for it.
import WebSocket from 'ws';
import type { BrokerErrorKind } from '../../core/errors.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { RITHMIC_TITLE, rithmicDescriptor } from './descriptor.ts';
import { decodeFrame, encodeFrame, isSuccess, type RithmicFields, rpCode } from './protocol.ts';

const DEFAULT_TIMEOUT_MS = 10_000;
/** How long a closing session waits for its logout's answer. */
const LOGOUT_WAIT_MS = 2_000;
/** rp_code "7": the request found nothing (async_rithmic treats it as an empty answer). */
const NO_DATA = '7';

export interface RequestOptions {
  /** The request may change state at Rithmic: a lost answer is an unknown outcome. */
  mutating?: boolean;
  /** The kind a refusal the exception table does not name is. */
  refusal?: BrokerErrorKind;
  /** Collect the snapshot notifications replayed before the last answer. */
  snapshots?: boolean;
  /** The caller's deadline: when it passes first, the request fails (its late answer is ignored). */
  signal?: AbortSignal;
}

export interface Reply {
  parts: RithmicFields[];
  last: RithmicFields;
  snapshots: RithmicFields[];
}

export interface Connection {
  request(fields: RithmicFields, options?: RequestOptions): Promise<Reply>;
  /** Live order notifications (351, 352 not replayed); returns the unsubscribe. */
  onNotification(listener: (notification: RithmicFields) => void): () => void;
  /** One heartbeat now, then one every `seconds` (the login answer's heartbeat_interval). */
  startHeartbeats(seconds: number): void;
  /** False once closed, dropped or logged out by Rithmic: a pool opens a new one. */
  readonly usable: boolean;
  /** Logs out (when logged in) and closes. */
  close(): Promise<void>;
}

interface Pending {
  tag: string;
  options: RequestOptions;
  parts: RithmicFields[];
  snapshots: RithmicFields[];
  resolve(reply: Reply): void;
  reject(error: BrokerError): void;
}

const unavailable = (message: string, outcomeUnknown = false) =>
  new BrokerError('BrokerUnavailable', RITHMIC_TITLE, message, { outcomeUnknown });

/** ResponseNewOrder, ResponseBracketOrder: a basket_id in them is the new order's (a cancel's echoes its request). */
const NEW_ORDER_ANSWERS = new Set([313, 331]);

/**
 * "13 permission denied" → kind and the text shown ("permission denied"). A refusal of a request
 * that may change something is certain only when nothing in it says the plant acted or stopped
 * waiting: an order's answer naming a basket_id (the order has an id at Rithmic) or a text saying
 * it timed out leaves the outcome unknown.
 */
export function refusalOf(codes: string[], fallback: BrokerErrorKind, answer?: RithmicFields): BrokerError {
  const [code = '', ...texts] = codes;
  const text = texts.join(' ').trim() || `error ${code}`;
  const kind = matchException(rithmicDescriptor.exceptions, code) ?? matchException(rithmicDescriptor.exceptions, text);
  const created = NEW_ORDER_ANSWERS.has(Number(answer?.template_id)) && Boolean(answer?.basket_id);
  const undecided = answer !== undefined && (created || /time[ds]?[\s-]?out/i.test(text));
  if (undecided) return unavailable(`${text} (outcome unknown)`, true);
  return new BrokerError(kind ?? fallback, RITHMIC_TITLE, text);
}

const tagOf = (fields: RithmicFields) => (Array.isArray(fields.user_msg) ? String(fields.user_msg[0] ?? '') : '');
const isNotification = (fields: RithmicFields) => fields.template_id === 351 || fields.template_id === 352;

/** Opens a connection; `signal` bounds the opening only (each request brings its own). */
export async function openConnection(url: string, signal?: AbortSignal): Promise<Connection> {
  if (!/^wss?:\/\//.test(url)) throw unavailable(`the gateway must be a ws:// or wss:// URL, not ${url}`);
  // ws rather than Node's WebSocket: Node 20 has none. Failures arrive as 'close' (below).
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    const fail = () => {
      signal?.removeEventListener('abort', fail);
      socket.close();
      reject(unavailable('could not reach the Rithmic gateway'));
    };
    socket.addEventListener(
      'open',
      () => {
        signal?.removeEventListener('abort', fail);
        socket.removeEventListener('error', fail);
        resolve();
      },
      { once: true },
    );
    socket.addEventListener('error', fail, { once: true });
    signal?.addEventListener('abort', fail, { once: true });
  });

  let pending: Pending | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  let loggedIn = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const listeners = new Set<(notification: RithmicFields) => void>();

  const fail = (error: BrokerError) => {
    const current = pending;
    pending = undefined;
    current?.reject(error);
  };
  const lost = (message: string) => unavailable(message, pending?.options.mutating ?? false);

  socket.addEventListener('close', () => {
    closed = true;
    clearInterval(heartbeat);
    fail(lost('the connection closed before Rithmic answered'));
  });
  socket.addEventListener('message', (event) => {
    if (!(event.data instanceof ArrayBuffer)) return;
    let message: RithmicFields;
    try {
      message = decodeFrame(new Uint8Array(event.data));
    } catch {
      fail(lost('an answer that is not an R | Protocol message'));
      return;
    }
    received(message);
  });

  function received(message: RithmicFields) {
    const id = message.template_id;
    if (id === 19) return;
    if (id === 77) {
      loggedIn = false;
      fail(lost('Rithmic logged the session out (the user signed in elsewhere or has too many sessions)'));
      socket.close();
      return;
    }
    if (id === 75) {
      // A malformed or unsupported request: refused, nothing was acted on. A Reject echoing the
      // tag of an earlier request (one its caller stopped waiting for) is not this one's.
      const tag = tagOf(message);
      if (!tag || tag === pending?.tag) fail(refusalOf(rpCode(message), 'InvalidOrder'));
      return;
    }
    if (isNotification(message)) {
      if (message.is_snapshot === true) pending?.snapshots.push(message);
      else for (const listener of listeners) listener(message);
      return;
    }
    const current = pending;
    if (!current || tagOf(message) !== current.tag) return;
    const codes = rpCode(message);
    if (codes.length === 0) {
      current.parts.push(message);
      return;
    }
    pending = undefined;
    if (isSuccess(codes) || (codes[0] === NO_DATA && current.options.snapshots))
      current.resolve({ parts: current.parts, last: message, snapshots: current.snapshots });
    else
      current.reject(
        refusalOf(codes, current.options.refusal ?? 'InvalidOrder', current.options.mutating ? message : undefined),
      );
  }

  let counter = 0;
  function send(fields: RithmicFields, options: RequestOptions): Promise<Reply> {
    if (closed) return Promise.reject(unavailable('the connection is closed'));
    const { signal } = options;
    // Waited in line past the caller's deadline: never sent.
    if (signal?.aborted) return Promise.reject(unavailable('no answer from Rithmic before the deadline'));
    const tag = tagOf(fields) || `rq${++counter}`;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(lost('no answer from Rithmic in time'));
        // A plant that stopped answering: the next call starts on a new connection.
        socket.close();
      }, DEFAULT_TIMEOUT_MS);
      const onAbort = () => fail(lost('no answer from Rithmic before the deadline'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      pending = {
        tag,
        options,
        parts: [],
        snapshots: [],
        resolve: (reply) => {
          done();
          resolve(reply);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      socket.send(encodeFrame({ ...fields, user_msg: [tag] }));
    });
  }

  const connection: Connection = {
    request(fields, options = {}) {
      // One request at a time: answers are matched to the request in flight.
      const next = queue.then(
        () => send(fields, options),
        () => send(fields, options),
      );
      queue = next.catch(() => undefined);
      return next.then((reply) => {
        if (fields.template_id === 10) loggedIn = true;
        return reply;
      });
    },
    get usable() {
      return !closed && socket.readyState === WebSocket.OPEN;
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    startHeartbeats(seconds) {
      const beat = () => {
        if (!closed) socket.send(encodeFrame({ template_id: 18 }));
      };
      beat();
      clearInterval(heartbeat);
      if (seconds > 0) heartbeat = setInterval(beat, seconds * 1000);
      heartbeat?.unref();
    },
    async close() {
      clearInterval(heartbeat);
      if (loggedIn && !closed)
        await connection
          .request({ template_id: 12, user_msg: ['logout'] }, { signal: AbortSignal.timeout(LOGOUT_WAIT_MS) })
          .catch(() => undefined);
      loggedIn = false;
      if (!closed) socket.close(1000);
    },
  };
  return connection;
}
