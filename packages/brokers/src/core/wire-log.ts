// What an order call sent to the broker, for the trade's detail view (issue #21): every request
// of the shared HTTP client (http.ts) made inside `withWireLog`, and what a non-HTTP adapter
// reports through `recordBrokerRequest`, redacted when read. Carried by async context, so
// no adapter passes it along. Nothing secret is kept: credential headers are left out; values
// under secret-looking names and every known secret value (the session's) become '[redacted]'.
import { AsyncLocalStorage } from 'node:async_hooks';
import { BrokerError, isBrokerError } from './errors.ts';

/** One request as sent to the broker, redacted. */
export interface BrokerWireRequest {
  method: string;
  /** Path and query ('/v2/orders'); for a non-HTTP adapter, the operation it performed. */
  path: string;
  /** Non-secret headers only. */
  headers?: Record<string, string>;
  /** The body as sent: JSON or form fields as an object, other text as text; cut when long. */
  body?: unknown;
}

export interface WireLog {
  readonly requests: readonly BrokerWireRequest[];
  /** The order's own request: the last one that could change state, else the last one. */
  orderRequest(): BrokerWireRequest | undefined;
  /**
   * Whether requests went out and every one was said to change nothing at the broker (`mutating:
   * false`: reads, a login): nothing of the order was sent yet. False with none recorded (an
   * adapter may send without recording) or once any other one was.
   */
  sentOnlyReads(): boolean;
  /**
   * `error` with the call's secrets redacted from its broker message: a broker that echoes the
   * request (its credentials) in its error must not put them in the answer, the activity or a
   * notification. The same error when it holds none.
   */
  redactError(error: unknown): unknown;
}

interface OpenLog extends WireLog {
  add(request: RawWireRequest): void;
}

/** A request before redaction; `body` as text (JSON or form encoded) or as a value. */
export interface RawWireRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Whether it can change state at the broker: false only where the sender knows it cannot. */
  mutating?: boolean;
}

export const REDACTED = '[redacted]';
const MAX_REQUESTS = 10;
const MAX_BODY_CHARS = 4_096;
/** Shorter values would blank out ordinary text ("1", "true"); secrets are longer. */
const MIN_SECRET_CHARS = 6;
/** Names of credentials, keys, signatures and tokens, in headers, query and bodies. */
const SECRET_NAME =
  /secret|passw|passphrase|token|signature|credential|cookie|session|api[-_]?key|private|auth|otp|(^|[-_.])(key|sig|sign|pin|hash)([-_.]|$)/i;
const CREDENTIAL_VALUE = /^(bearer|basic|digest|oauth|hmac)\b/i;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const storage = new AsyncLocalStorage<OpenLog>();

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

function scrubValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, depth + 1));
  // A loop rather than entries → map → fromEntries: on every live signal's activity entry.
  const scrubbed: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = isSecretName(key) ? REDACTED : scrubValue((value as Record<string, unknown>)[key], secrets, depth + 1);
    // An own "__proto__" (JSON.parse makes one) stays a field, as fromEntries kept it.
    if (key === '__proto__')
      Object.defineProperty(scrubbed, key, { value: item, enumerable: true, writable: true, configurable: true });
    else scrubbed[key] = item;
  }
  return scrubbed;
}

/** JSON text → value, form text → fields, other text as it is. */
function readBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    if (/^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/.test(body)) return Object.fromEntries(new URLSearchParams(body));
    return body;
  }
}

function redactPath(path: string, secrets: readonly string[]): string {
  const [pathname = '', query] = path.split(/\?(.*)/s);
  if (query === undefined) return scrubText(pathname, secrets);
  const params = new URLSearchParams(query);
  for (const name of [...params.keys()]) if (isSecretName(name)) params.set(name, REDACTED);
  return `${scrubText(pathname, secrets)}?${scrubText(params.toString(), secrets)}`;
}

function redactHeaders(headers: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name, value]) => !isSecretName(name) && !CREDENTIAL_VALUE.test(value) && scrubText(value, secrets) === value,
    ),
  );
}

/** The request with every secret taken out, its body cut at 4 KiB. */
export function redactWireRequest(raw: RawWireRequest, secrets: readonly string[]): BrokerWireRequest {
  const known = secrets.filter((secret) => secret.length >= MIN_SECRET_CHARS);
  const request: BrokerWireRequest = { method: raw.method.toUpperCase(), path: redactPath(raw.path, known) };
  const headers = raw.headers ? redactHeaders(raw.headers, known) : {};
  if (Object.keys(headers).length > 0) request.headers = headers;
  if (raw.body !== undefined) {
    const body = scrubValue(readBody(raw.body), known);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    request.body = text !== undefined && text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}…` : body;
  }
  return request;
}

/**
 * A log for one broker call; `secrets` (the session's values, the app's client secret) are redacted
 * from the requests kept. A broker's error message is cleared of `errorSecrets` only (read when an
 * error needs it; all of `secrets` when not given): the session's values that are secrets by name
 * (a password, a token), not the ones a trader must read in the message (MetaTrader's server name).
 */
export function createWireLog(
  secrets: readonly string[],
  errorSecrets: () => readonly string[] = () => secrets,
): WireLog & { run<T>(work: () => Promise<T>): Promise<T> } {
  return new CallLog(secrets, errorSecrets);
}

// A class, not closures per log: a live signal keeps its log while it waits for the broker (a
// burst's backlog holds thousands).
class CallLog implements OpenLog {
  // Kept as sent and redacted when read: a call's other requests (look-ups) are never redacted for nothing.
  readonly #raws: RawWireRequest[] = [];
  readonly #secrets: readonly string[];
  readonly #errorSecrets: () => readonly string[];
  /** Counted apart from the kept requests, which drop the oldest. */
  #sent = 0;
  #changing = false;

  constructor(secrets: readonly string[], errorSecrets: () => readonly string[]) {
    this.#secrets = secrets;
    this.#errorSecrets = errorSecrets;
  }

  get requests(): BrokerWireRequest[] {
    return this.#raws.map((raw) => redactWireRequest(raw, this.#secrets));
  }

  add(raw: RawWireRequest): void {
    this.#sent += 1;
    if (raw.mutating !== false) this.#changing = true;
    if (this.#raws.length >= MAX_REQUESTS) this.#raws.shift();
    this.#raws.push(raw);
  }

  orderRequest(): BrokerWireRequest | undefined {
    const raw = this.#raws.findLast((r) => STATE_CHANGING.has(r.method.toUpperCase())) ?? this.#raws.at(-1);
    return raw ? redactWireRequest(raw, this.#secrets) : undefined;
  }

  sentOnlyReads(): boolean {
    return this.#sent > 0 && !this.#changing;
  }

  redactError(error: unknown): unknown {
    if (!isBrokerError(error)) return error;
    const known = this.#errorSecrets().filter((secret) => secret.length >= MIN_SECRET_CHARS);
    const message = scrubText(error.brokerMessage, known);
    if (message === error.brokerMessage) return error;
    const { cause, outcomeUnknown, retryAfter, brokerOrderId } = error;
    return new BrokerError(error.kind, error.brokerTitle, message, {
      cause,
      outcomeUnknown,
      retryAfter,
      brokerOrderId,
    });
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return storage.run(this, work);
  }
}

/**
 * Records a request sent to the broker, into the log of the call it is part of (none: nothing).
 * The shared HTTP client calls it for every request; adapters that speak another transport
 * (a socket, a library, a simulator) call it with what they sent.
 */
export function recordBrokerRequest(raw: RawWireRequest): void {
  storage.getStore()?.add(raw);
}
