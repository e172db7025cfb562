// The playground's lenient reading of order text (SPEC §5): strict JSON first, then repaired by
// jsonrepair, which fixes what people type by hand:
//   {symbol: 'AAPL', action: "buy", quantity: 1, /* test */ limit: True,}
// When repair fails too, its message is shown as is: "Unexpected end of json string at position 12"
// (positions are 0-based character offsets, as in expression errors).
import { JSONRepairError, jsonrepair } from 'jsonrepair';
import { duplicateKey, withoutByteOrderMark } from '../order/body.ts';

export type OrderTextResult = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

export function parseOrderText(text: string): OrderTextResult {
  try {
    // A leading byte-order mark is no repair: the hook drops it too.
    return parsed(withoutByteOrderMark(text), false);
  } catch {
    // Not strict JSON: fall through to the repair.
  }
  const truncated = truncatedNumber(text);
  if (truncated) return { ok: false, error: truncated };
  try {
    return parsed(jsonrepair(text), true);
  } catch (error) {
    if (error instanceof JSONRepairError) return { ok: false, error: error.message };
    return { ok: false, error: error instanceof Error ? error.message : 'Invalid JSON' };
  }
}

const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", '`': '`', '\u201c': '\u201d', '\u2018': '\u2019' };
/** Where jsonrepair's numbers end (its atEndOfNumber): a delimiter, whitespace or the end. */
const NUMBER = /-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?(?=[,:[\]/{}()\n+]|\s|$)/y;
/** Cut short: a lone minus, a dot or an exponent with no digits after it. */
const TRUNCATED = /^-?$|\.$|[eE][+-]?$/;

/**
 * A value that is a number cut short (`1e`, `2.`, `1e+`, `-`), as typing leaves it: jsonrepair
 * completes it with a 0 (1e0 is 1, -0 is 0), a price nobody typed. Refused instead, in
 * jsonrepair's words: 'Incomplete number "1e" at position 15'.
 */
function truncatedNumber(text: string): string | undefined {
  let previous = ''; // The last character outside whitespace, comments and strings.
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    const closing = CLOSING_QUOTE[char];
    if (closing) {
      i += 1;
      while (i < text.length && text[i] !== closing) i += text[i] === '\\' ? 2 : 1;
      i += 1;
      previous = closing;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (/\s/.test(char)) {
      i += 1;
    } else {
      if ((previous === '' || ':[,'.includes(previous)) && /[-.\d]/.test(char)) {
        NUMBER.lastIndex = i;
        const number = NUMBER.exec(text)?.[0];
        if (number !== undefined && TRUNCATED.test(number)) return `Incomplete number "${number}" at position ${i}`;
      }
      previous = char;
      i += 1;
    }
  }
  return undefined;
}

/** Parsed JSON, or a key given twice: the hook refuses that text, so the playground does too. */
function parsed(json: string, repaired: boolean): OrderTextResult {
  const value: unknown = JSON.parse(json);
  const twice = duplicateKey(json);
  return twice === undefined ? { ok: true, value, repaired } : { ok: false, error: `${twice}: given twice` };
}
