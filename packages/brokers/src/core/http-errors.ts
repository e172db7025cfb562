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

/**
 * A Retry-After as the broker said it (RFC 9110 §10.2.3): seconds, or an HTTP date (`at`, ms since
 * the epoch); undefined when it is neither.
 */
export function parseRetryAfter(value: string | null | undefined): { seconds: number } | { at: number } | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return { seconds: Number(text) };
  // An HTTP date names its day and month ("Fri, 27 Nov 2026 15:00:00 GMT"); Date.parse would
  // read a bare "1.5" or "-1" as a date of 2001.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : { at };
}

const MESSAGE_FIELDS = ['message', 'error_description', 'error', 'detail', 'msg', 'errors', 'description'];
const MAX_LENGTH = 300;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** An HTML page (a proxy's, a CDN's), as against a broker's XML answer. */
const HTML = /^<(!doctype\s+html|html|head|body)[\s>]/i;

/**
 * The text of the first `<name>…</name>` element of an XML answer (E*TRADE's default format:
 * <Error><code>100</code><message>…</message></Error>), entities decoded; nothing from an HTML page.
 */
export function xmlField(body: unknown, name: string): string | undefined {
  if (typeof body !== 'string') return undefined;
  const text = body.trim();
  if (!text.startsWith('<') || HTML.test(text) || /<html[\s>]/i.test(text)) return undefined;
  const found = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`, 'i').exec(text)?.[1]?.trim();
  return found ? found.replace(/&(amp|lt|gt|quot|apos);/g, (_, entity: string) => ENTITIES[entity] ?? '') : undefined;
}

const clip = (text: string) => (text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}…` : text);

/**
 * The broker's message: {"message": "..."}, {"error": {"message": "..."}}, {"errors": [{"detail": "..."}]},
 * an XML error's <message>, or a short plain-text body. HTML error pages say nothing useful and are skipped.
 */
export function messageOf(body: unknown, depth = 0): string | undefined {
  if (depth > 3 || body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text) return undefined;
    if (text.startsWith('<')) {
      const found = MESSAGE_FIELDS.map((field) => xmlField(text, field)).find(Boolean);
      return found ? clip(found) : undefined;
    }
    return clip(text);
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

/**
 * An error page (HTML, or XML without a message) or nothing at all: what a proxy or a CDN answers
 * in a broker's place. A broker's own XML error, with its message, is no page.
 */
export function isErrorPage(body: unknown): boolean {
  return body === undefined || (typeof body === 'string' && messageOf(body) === undefined);
}
