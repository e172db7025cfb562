// Tokenizer of numeric expressions. Parses what charting platforms send after substituting
// their variables, e.g.:
//   "101.5 * 1.01"    "round(2450.25 × 0.98, 2)"    "-(3 ** 2) + max(1, 2.5e-1, 4)"
// Positions are 0-based character offsets into the text (as jsonrepair reports them), so the
// playground shows one convention for JSON and expression errors alike.

import { quoteCharacter } from '../errors.ts';

export type Operator = '+' | '-' | '*' | '/' | '^';

export type Token =
  | { kind: 'number'; value: number; text: string; pos: number }
  | { kind: 'operator'; op: Operator; pos: number }
  | { kind: 'name'; name: string; pos: number }
  | { kind: '(' | ')' | ',' | 'end'; pos: number };

/** Thrown inside this folder only; evaluate.ts turns it into an OrderValidationError. */
/** Where a "1,000" or a decimal comma ("1,5") meets the argument separator of min(1, 2). */
export const COMMA_HINT = 'a number takes "." for decimals and no thousands separator (1000.5)';
/** "10%" in a numeric field: the percentages the order language takes. */
const PERCENT_HINT =
  'a percentage is given as a number in a field of its own: quantity_type percent_of_equity or percent_of_position ' +
  '(50 means 50 %), stop_price_percent, stop_loss_price_percent';

export class ExpressionSyntaxError extends Error {
  readonly pos: number;

  /** `hint` says how the field takes what was written (a thousands separator, a percent sign). */
  constructor(reason: string, pos: number, hint?: string) {
    super(`${reason} at position ${pos}${hint ? `: ${hint}` : ''}`);
    this.pos = pos;
  }
}

const SINGLE: Readonly<Record<string, Operator | '(' | ')' | ','>> = {
  '+': '+',
  '-': '-',
  '\u2212': '-', // typographic minus, pasted from documents
  '*': '*',
  '\u00d7': '*', // ×
  '/': '/',
  '\u00f7': '/', // ÷
  '^': '^',
  '(': '(',
  ')': ')',
  ',': ',',
};

const WHITESPACE = /\s/;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const PLACEHOLDER = /\{\{[^}]*\}\}|%[a-zA-Z_.]+%/y;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    // Any space, a no-break one pasted from a document included: numbers never span one.
    if (ch === ' ' || WHITESPACE.test(ch)) {
      i++;
      continue;
    }
    if (ch === '*' && text.charAt(i + 1) === '*') {
      tokens.push({ kind: 'operator', op: '^', pos: i });
      i += 2;
      continue;
    }
    const single = Object.hasOwn(SINGLE, ch) ? SINGLE[ch] : undefined;
    if (single !== undefined) {
      tokens.push(single === '(' || single === ')' || single === ',' ? { kind: single, pos: i } : operator(single, i));
      i++;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      const value = Number(number[0]);
      if (!Number.isFinite(value)) throw new ExpressionSyntaxError('number out of range', i);
      tokens.push({ kind: 'number', value, text: number[0], pos: i });
      i += number[0].length;
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(text);
    if (name) {
      tokens.push({ kind: 'name', name: name[0].toLowerCase(), pos: i });
      i += name[0].length;
      continue;
    }
    PLACEHOLDER.lastIndex = i;
    const placeholder = PLACEHOLDER.exec(text);
    if (placeholder) {
      // A variable the charting platform did not substitute: say so rather than "unexpected {".
      throw new ExpressionSyntaxError(`placeholder ${placeholder[0]} was not replaced by the sender`, i);
    }
    const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
    throw new ExpressionSyntaxError(`unexpected ${quoteCharacter(char)}`, i, char === '%' ? PERCENT_HINT : undefined);
  }
  tokens.push({ kind: 'end', pos: text.length });
  return tokens;
}

function operator(op: Operator, pos: number): Token {
  return { kind: 'operator', op, pos };
}
