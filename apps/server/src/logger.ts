// pino with secrets redacted: tokens, passwords, credentials and hook keys never reach a log.
import pino, { type Logger, type LoggerOptions } from 'pino';

/** Keys whose values never reach a log, at the top of a logged object or one level down. */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'password',
  'password2',
  'passcode',
  'token',
  'secret',
  'credentials',
  'accessToken',
  'refreshToken',
  'shortKey',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'code_verifier',
  'clientSecret',
  'secretHash',
  'recoveryCodes',
]);

/** Request headers that never reach a log (the req serializer below keeps none anyway). */
const REDACT_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-user"]'];

const CENSOR = '[redacted]';

/**
 * A copy keeping the prototype and the non-enumerable own properties (an Error's message), with
 * accessors read from the original (V8's `stack` reads the object it is called on).
 */
function copyOf<T extends object>(value: T): T {
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(value);
  for (const [key, d] of Object.entries(descriptors)) {
    if (d.get) descriptors[key] = { value: Reflect.get(value, key), enumerable: d.enumerable, writable: true };
  }
  return Object.create(Object.getPrototypeOf(value), descriptors) as T;
}

const replace = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `value` with its secret keys censored, `depth` levels down too: the same object when it has none. */
function censor<T extends Record<string, unknown>>(value: T, depth: number): T {
  let copy: T | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const kept = SECRET_KEYS.has(key) ? CENSOR : depth > 0 && isRecord(item) ? censor(item, depth - 1) : item;
    if (kept === item) continue;
    copy ??= copyOf(value);
    replace(copy, key, kept);
  }
  return copy ?? value;
}

/**
 * Secrets censored in what a log line carries: its own keys and those of the objects it holds
 * (pino's `*.password` paths, and top-level keys as well). Done here rather than by wildcard
 * `redact` paths, which pino also runs over the bindings of every child logger: Fastify makes one
 * per request (1.7 µs and ~7 KB of garbage each with 20 paths, against 0.25 µs without).
 */
export function censorSecrets(line: Record<string, unknown>): Record<string, unknown> {
  return censor(line, 1);
}

/** Where drizzle's failed-query message starts its parameters (the rest of the message). */
const PARAMS_LINE = /\nparams: [\s\S]*$/;

/**
 * A failed query's error without the values it carried: drizzle writes the parameters into its
 * message (hence the stack too) and keeps them as `params`, and PostgreSQL's `detail` may quote
 * the failing row ("Failing row contains (…)": a hook key, a secret's ciphertext). The SQL, the
 * error code, table and constraint stay, which is what a reader of the log needs.
 */
export function withoutQueryValues(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 3) return error;
  const record = error as Error & Record<string, unknown>;
  const hasParams = 'params' in record && PARAMS_LINE.test(record.message);
  if (!hasParams && !('detail' in record) && !(record.cause instanceof Error)) return error;
  const copy = copyOf(record);
  if (hasParams) {
    // Both writable in the copy (copyOf keeps them so), whether data or accessor on the original.
    copy.message = record.message.replace(PARAMS_LINE, '\nparams: [redacted]');
    copy.stack = (record.stack ?? '').replace(record.message, copy.message);
    delete copy.params;
  }
  if ('detail' in copy) delete copy.detail;
  if (record.cause instanceof Error) replace(copy, 'cause', withoutQueryValues(record.cause, depth + 1));
  return copy;
}

/**
 * `/hook/AbC…` → `/hook/***`: the key is the hook's only secret; so are OAuth codes and tokens,
 * and what brokers' callbacks bring instead of a code (Kite's request_token, OAuth 1.0a's
 * oauth_token and oauth_verifier).
 */
export function maskUrl(url: string): string {
  return url
    .replace(/\/hook\/[^/?#]+/, '/hook/***')
    .replace(
      /([?&](?:token|code|access_token|refresh_token|id_token|id_token_hint|client_secret|code_verifier|request_token|oauth_token|oauth_verifier)=)[^&#]*/g,
      '$1***',
    );
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    formatters: { log: censorSecrets },
    serializers: {
      err: (error: unknown) => pino.stdSerializers.err(withoutQueryValues(error) as Error),
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: maskUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
