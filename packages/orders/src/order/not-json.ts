// Why a body's text is no JSON, in the sender's terms rather than the parser's, for the mistakes
// senders make: a form post (Zapier), a placeholder left bare and unreplaced (TradingView), two
// orders in one alert. Only read when JSON.parse has failed: nothing here runs for a good body.
import { jsonrepair } from 'jsonrepair';
import { OrderValidationError, refuse } from '../errors.ts';
import { COMMA_HINT } from '../expression/tokens.ts';
import { PLACEHOLDER } from './raw-schema.ts';

/** `symbol=AAPL&action=buy`: a form post (Zapier's Webhooks "Form" payload type), not JSON. */
const FORM_ENCODED = /^[\w.%[\]-]+=[^&{}]*(?:&[\w.%[\]-]+=[^&{}]*)*$/;
const FORM_REFUSAL =
  'not valid JSON: this is form-encoded (key=value&…); send the order as a JSON object (in Zapier, Payload Type: JSON)';

/**
 * TradingView's default strategy alert message, as it arrives when the alert's Message was left as
 * it came: "{{strategy.order.action}} @ {{strategy.order.contracts}} filled on {{ticker}}. New
 * strategy position is {{strategy.position_size}}", filled in ("buy @ 1 filled on AAPL. New …").
 */
const TRADINGVIEW_DEFAULT = /^\s*\S+ @ \S+ filled on \S+\. New strategy position is /;
const TRADINGVIEW_DEFAULT_REFUSAL =
  "not valid JSON: this is TradingView's default strategy alert message; replace the alert's Message with the JSON order";

/** No body, or only blanks: an alert whose Message was left empty (the parser would say "Unexpected end of JSON input"). */
const EMPTY_REFUSAL = "empty: send the order as a JSON object (in TradingView, the alert's Message)";

/** The refusal of `text` (without a byte-order mark), which JSON.parse refused with `error`. */
export function whyNotJson(text: string, error: unknown): OrderValidationError {
  if (text.trim() === '') return refuse('body', EMPTY_REFUSAL);
  const unreplaced = unquotedPlaceholder(text);
  if (unreplaced) return unreplaced;
  const comma = numberWithComma(text);
  if (comma) return comma;
  if (severalObjects(text)) return refuse('body', SEVERAL_REFUSAL);
  if (FORM_ENCODED.test(text.trim())) return refuse('body', FORM_REFUSAL);
  if (TRADINGVIEW_DEFAULT.test(text)) return refuse('body', TRADINGVIEW_DEFAULT_REFUSAL);
  const reason = `not valid JSON (${error instanceof Error ? error.message : 'unreadable'})`;
  return refuse('body', readsOnceRepaired(text) ? `${reason}${REPAIRABLE}` : reason);
}

const REPAIRABLE =
  "; it reads only once repaired (single quotes, trailing commas, comments…): send the strict JSON the playground's Copy gives";

/**
 * An object once jsonrepair has fixed it, as the playground reads its text (SPEC §5): the playground
 * tested it, the hook takes strict JSON only. Only read when parsing failed.
 */
function readsOnceRepaired(text: string): boolean {
  try {
    const value: unknown = JSON.parse(jsonrepair(text));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** `"quantity": {{strategy.order.contracts}}`: a value that is a bare placeholder, with its key. */
const BARE_VALUE = new RegExp(`"((?:[^"\\\\]|\\\\.)*)"\\s*:\\s*(${PLACEHOLDER.source})`);
const WHOLE_BODY = new RegExp(`^(?:${PLACEHOLDER.source})$`);

/**
 * A placeholder the sender wrote as a bare value, unquoted, and did not replace (TradingView fills
 * strategy variables only in a strategy's alerts), or as the whole message: the text is then no
 * JSON, and the parser's "Expected property name" would hide why. Only read when parsing failed.
 */
function unquotedPlaceholder(text: string): OrderValidationError | undefined {
  const trimmed = text.trim();
  const bare = WHOLE_BODY.test(trimmed) ? ['body', trimmed] : BARE_VALUE.exec(text)?.slice(1, 3);
  if (!bare) {
    // Elsewhere outside a string (`{…} {{strategy.order.comment}}`, `1.01 * {{close}}`): the body's.
    const loose = placeholderOutsideStrings(text);
    return loose === undefined
      ? undefined
      : new OrderValidationError('body', `body: placeholder ${loose} was not replaced by the sender`);
  }
  const [key = '', placeholder] = bare;
  let field = key;
  try {
    field = JSON.parse(`"${key}"`);
  } catch {
    // An escape JSON does not know: the key as written.
  }
  return new OrderValidationError(field, `${field}: placeholder ${placeholder} was not replaced by the sender`);
}

/** PLACEHOLDER at one position, bounded (64 KiB of "{" must not cost 64K scans to the end), and with no quote or brace inside: `{{"a":1}}` is braces doubled. */
const PLACEHOLDER_AT = /\{\{[^{}"]{0,200}\}\}|%[a-zA-Z_.]{1,200}%/y;

/** The first placeholder outside the text's JSON strings. */
function placeholderOutsideStrings(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
    } else if (ch === 0x7b /* { */ || ch === 0x25 /* % */) {
      PLACEHOLDER_AT.lastIndex = i;
      const found = PLACEHOLDER_AT.exec(text)?.[0];
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * `"quantity": 1,000` or `1,5`: a value that is a number with a thousands separator or a decimal comma;
 * `1.000.000` or `1.234.567,89`: points grouping thousands (a second point is no decimal one).
 */
const COMMA_NUMBER =
  /"((?:[^"\\]|\\.)*)"\s*:\s*(-?\d+(?:\.\d+)?(?:,\d+)+(?:\.\d+)?|-?\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?)\s*[,}\]]/;

/**
 * A number written with a comma, which ends the value in JSON and leaves the parser's "Expected
 * double-quoted property name" to say neither which value nor why. Only read when parsing failed.
 */
function numberWithComma(text: string): OrderValidationError | undefined {
  const [, key, value] = COMMA_NUMBER.exec(text) ?? [];
  if (key === undefined) return undefined;
  return refuse(key, `${value} is no number in JSON: ${COMMA_HINT}`);
}

export const SEVERAL_REFUSAL = 'holds more than one order; send one order per signal (an alert or a call each)';

/**
 * `{…}\n{…}` or `{…},{…}`: a whole JSON object, then the start of another, as two orders written
 * into one alert (not `{…} {{strategy.order.comment}}`: one order, then text). Only read when parsing failed.
 */
function severalObjects(text: string): boolean {
  const start = text.search(/\S/);
  if (text.charAt(start) !== '{') return false;
  const end = closingBrace(text, start);
  if (end < 0) return false;
  try {
    JSON.parse(text.slice(start, end + 1));
  } catch {
    return false;
  }
  // `{{` opens no object: an unreplaced placeholder after the order ({{strategy.order.comment}}).
  return /^\s*,?\s*\{(?!\{)/.test(text.slice(end + 1));
}

/** Where the object opening at `start` closes (strings skipped), or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      depth++;
    } else if ((ch === 0x7d /* } */ || ch === 0x5d) /* ] */ && --depth === 0) {
      return i;
    }
  }
  return -1;
}
