// Reading failures: the system error code under fetch's "fetch failed", and a broker's error
// message out of whatever shape its error body has.

/** Finds a Node error code (ECONNREFUSED, ECONNRESET, ...) along the cause chain. */
export function errorCodeOf(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || !error || typeof error !== 'object') return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = errorCodeOf(inner, depth + 1);
      if (found) return found;
    }
  }
  return errorCodeOf(cause, depth + 1);
}

const MESSAGE_FIELDS = ['message', 'error_description', 'error', 'detail', 'msg', 'errors', 'description'];
const MAX_LENGTH = 300;

/**
 * The broker's message: {"message": "..."}, {"error": {"message": "..."}}, {"errors": [{"detail": "..."}]}
 * or a short plain-text body. HTML error pages say nothing useful and are skipped.
 */
export function messageOf(body: unknown, depth = 0): string | undefined {
  if (depth > 3 || body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text || text.startsWith('<')) return undefined;
    return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}…` : text;
  }
  if (Array.isArray(body)) return messageOf(body[0], depth + 1);
  if (typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const field of MESSAGE_FIELDS) {
      const found = messageOf(record[field], depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** An error page (HTML) or nothing at all: what a proxy or a CDN answers in a broker's place. */
export function isErrorPage(body: unknown): boolean {
  return body === undefined || (typeof body === 'string' && messageOf(body) === undefined);
}
