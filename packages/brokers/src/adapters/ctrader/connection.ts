// One Open API connection: a WebSocket carrying one ProtoMessage per binary frame (WIRE.md §2),
// through `ws` (Node 20 has no WebSocket client of its own).
// A request waits for the message echoing its clientMsgId (or one its `match` recognizes: an
// execution event may come without the echo); every message is also handed to the listeners
// (fills, disconnections). A heartbeat goes out whenever nothing was sent for half of
// HEARTBEAT_MS, so never 8 s pass in silence (Spotware's FAQ: at least one every 10 s, or the
// server disconnects). Nothing is ever sent twice
// here: a request whose answer is lost fails with outcomeUnknown when it could change something.
import WebSocket from 'ws';
import { BrokerError } from '../../core/errors.ts';
import type { JsonRecord } from '../../core/json-read.ts';
import { CTRADER_TITLE } from './descriptor.ts';
import { decodeMessage, encodeMessage, type WireMessage } from './protocol.ts';

/** The longest silence the client allows itself (checked every half of it). */
export const HEARTBEAT_MS = 8_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface RequestOptions {
  /** The request can change state at cTrader (an order): a lost answer is outcomeUnknown. */
  mutating: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A message without the echoed clientMsgId that answers this request all the same. */
  match?: (message: WireMessage) => boolean;
}

export interface Connection {
  request(name: string, payload: JsonRecord, options: RequestOptions): Promise<WireMessage>;
  /** Every message received, until the returned function is called. */
  listen(listener: (message: WireMessage) => void): () => void;
  readonly open: boolean;
  close(): void;
}

const unavailable = (message: string, outcomeUnknown: boolean, cause?: unknown) =>
  new BrokerError('BrokerUnavailable', CTRADER_TITLE, message, { outcomeUnknown, ...(cause ? { cause } : {}) });

interface Waiter {
  resolve(message: WireMessage): void;
  reject(error: BrokerError): void;
  match?: (message: WireMessage) => boolean;
}

/** Opens a connection to `url` (wss:// at cTrader, ws:// on loopback). Nothing is sent before it opens. */
export function openConnection(
  url: string,
  signal?: AbortSignal,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  heartbeatMs = HEARTBEAT_MS,
): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
    // An error is always followed by a close, which fails whatever still waits: never thrown.
    socket.on('error', () => undefined);
    const limit = AbortSignal.timeout(timeoutMs);
    const deadline = signal ? AbortSignal.any([signal, limit]) : limit;
    const giveUp = (cause?: unknown) => {
      socket.terminate();
      reject(unavailable('cannot reach cTrader', false, cause));
    };
    deadline.addEventListener('abort', giveUp, { once: true });
    socket.once('error', giveUp);
    // The pool keeps sockets open between calls; they must not hold a stopping server up.
    socket.once('upgrade', (response) => response.socket.unref());
    socket.once('open', () => {
      deadline.removeEventListener('abort', giveUp);
      socket.off('error', giveUp);
      resolve(connectionOver(socket, heartbeatMs));
    });
  });
}

function connectionOver(socket: WebSocket, heartbeatMs: number): Connection {
  const waiters = new Map<string, Waiter>();
  const listeners = new Set<(message: WireMessage) => void>();
  let counter = 0;
  let lastSent = Date.now();
  let open = true;

  const send = (name: string, payload: JsonRecord, clientMsgId?: string) => {
    socket.send(encodeMessage(name, payload, clientMsgId));
    lastSent = Date.now();
  };
  const heartbeat = setInterval(() => {
    if (open && Date.now() - lastSent >= heartbeatMs / 2) send('ProtoHeartbeatEvent', {});
  }, heartbeatMs / 2);
  heartbeat.unref();

  socket.on('message', (data, isBinary) => {
    if (!isBinary || !Buffer.isBuffer(data)) return; // The protobuf port speaks binary frames only.
    let message: WireMessage;
    try {
      message = decodeMessage(data);
    } catch {
      return; // A frame the schema cannot read answers nothing we asked; its request times out.
    }
    const byId = message.clientMsgId ? waiters.get(message.clientMsgId) : undefined;
    const waiter = byId ?? [...waiters.values()].find((item) => item.match?.(message));
    waiter?.resolve(message);
    for (const listener of [...listeners]) listener(message);
  });
  socket.on('close', () => {
    open = false;
    clearInterval(heartbeat);
    for (const waiter of [...waiters.values()]) waiter.reject(unavailable('connection lost', true));
  });

  return {
    get open() {
      return open;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => socket.close(),
    request(name, payload, options) {
      if (!open) return Promise.reject(unavailable('connection lost', false));
      counter += 1;
      const clientMsgId = `cm_${counter}`;
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      return new Promise<WireMessage>((resolve, reject) => {
        const limit = AbortSignal.timeout(timeoutMs);
        const deadline = options.signal ? AbortSignal.any([options.signal, limit]) : limit;
        const done = () => {
          waiters.delete(clientMsgId);
          deadline.removeEventListener('abort', expire);
        };
        const expire = () => {
          done();
          const message = limit.aborted ? `no answer within ${timeoutMs} ms` : 'no answer before the deadline';
          reject(unavailable(message, options.mutating));
        };
        if (deadline.aborted) return reject(unavailable('no time left before the deadline', false));
        deadline.addEventListener('abort', expire, { once: true });
        waiters.set(clientMsgId, {
          ...(options.match ? { match: options.match } : {}),
          resolve: (message) => {
            done();
            resolve(message);
          },
          reject: (error) => {
            done();
            // A request still waiting when the socket closed may have been acted on.
            reject(options.mutating ? error : unavailable(error.brokerMessage, false, error));
          },
        });
        try {
          send(name, payload, clientMsgId);
        } catch (error) {
          done();
          reject(unavailable(`could not send ${name}`, false, error));
        }
      });
    },
  };
}
