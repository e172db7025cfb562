/**
 * The one way every screen says the server did not answer: no connection (fetch rejected), a
 * proxy's 502 or 504, or a 503 (the server restarting, its database down). The app's GraphQL
 * client turns those into a ServerUnreachableError (`reachingFetch`), so a form shows one clear
 * sentence rather than 'Failed to fetch', 'Bad Gateway' or a proxy's HTML page.
 */

/** No answer at all, or a gateway that timed out (the change may have reached the server). */
export const UNREACHABLE_TEXT = 'The server could not be reached. Check your connection and try again.';

/** The server (or the proxy in front of it) said it cannot serve now: nothing was done. */
export function unavailableText(retryAfterS?: number): string {
  return `The server is unavailable right now and nothing was changed. ${tryAgainText(retryAfterS)}`;
}

/** 'Please try again in 5 seconds.', in minutes past 90 seconds; 'in a moment' when unknown. */
export function tryAgainText(retryAfterS?: number): string {
  if (retryAfterS === undefined || !Number.isFinite(retryAfterS) || retryAfterS <= 0) {
    return 'Please try again in a moment.';
  }
  const seconds = Math.ceil(retryAfterS);
  if (seconds <= 90) return `Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Please try again in ${minutes} minutes.`;
}

/** What the client's fetch throws when the server gave no GraphQL answer; its message is for the screen. */
export class ServerUnreachableError extends Error {
  override readonly name = 'ServerUnreachableError';
  /** Whole seconds to wait, from Retry-After, when the server said. */
  readonly retryAfterS: number | undefined;

  constructor(message = UNREACHABLE_TEXT, options: { cause?: unknown; retryAfterS?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterS = options.retryAfterS;
  }
}

/** A Retry-After header (seconds, or an HTTP date) as seconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
}

/** A GraphQL answer's body (data or errors), as opposed to a proxy's page or `{status, message}`. */
function isGraphQLBody(text: string): boolean {
  try {
    const body: unknown = JSON.parse(text);
    return (
      typeof body === 'object' &&
      body !== null &&
      ('data' in body || Array.isArray((body as { errors?: unknown }).errors))
    );
  } catch {
    return false;
  }
}

const UNAVAILABLE = new Set([502, 503]);
const GATEWAY_TIMEOUT = 504;

/**
 * `base` (the global fetch by default, read at each call) with its failures made a
 * ServerUnreachableError: a rejected request (not one the app aborted), and a 502, 503 or 504
 * answer without a GraphQL body. A GraphQL body passes on whatever its status (its errors are
 * the server's words).
 */
export function reachingFetch(base?: typeof fetch): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await (base ?? globalThis.fetch)(input, init);
    } catch (error) {
      if (init?.signal?.aborted || (error as { name?: unknown } | null)?.name === 'AbortError') throw error;
      throw new ServerUnreachableError(UNREACHABLE_TEXT, { cause: error });
    }
    if (!UNAVAILABLE.has(response.status) && response.status !== GATEWAY_TIMEOUT) return response;
    const text = await response
      .clone()
      .text()
      .catch(() => '');
    if (isGraphQLBody(text)) return response;
    if (response.status === GATEWAY_TIMEOUT) throw new ServerUnreachableError(UNREACHABLE_TEXT);
    const retryAfterS = parseRetryAfter(response.headers.get('retry-after'));
    throw new ServerUnreachableError(unavailableText(retryAfterS), { retryAfterS });
  };
}

/** fetch's own rejection of an unreachable address (Chromium, Firefox, Safari wordings). */
const FETCH_FAILED = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/;

/** The shared sentence when `error` (or a CombinedError's network error) is the server not answering. */
export function unreachableMessage(error: unknown): string | null {
  const networkError =
    typeof error === 'object' && error !== null && 'networkError' in error
      ? (error as { networkError?: unknown }).networkError
      : error;
  if (networkError instanceof ServerUnreachableError) return networkError.message;
  if (networkError instanceof TypeError && FETCH_FAILED.test(networkError.message)) return UNREACHABLE_TEXT;
  return null;
}
