// Evaluates numeric fields: numbers pass through, strings are math expressions (charting
// platforms substitute variables into text, so "{{close}} * 1.01" arrives as "101.5 * 1.01").
// No eval or Function: the AST of parser.ts is walked over a fixed set of operations.
import { OrderValidationError } from '../errors.ts';
import { type ExpressionNode, parseExpression } from './parser.ts';
import { ExpressionSyntaxError, tokenize } from './tokens.ts';

/** Longer text is not a price formula; refusing it bounds the work per field. */
export const MAX_EXPRESSION_LENGTH = 256;
/** Signals repeat the same few expressions, so outcomes (values and refusals) are cached. */
export const EXPRESSION_CACHE_SIZE = 1000;

type Outcome = { value: number } | { reason: string };
const cache = new Map<string, Outcome>();

/**
 * The value of `text`, or an OrderValidationError naming `field`, e.g.
 * `limit_price: unexpected "x" at position 5` (0-based position).
 */
export function evaluateExpression(text: string, field = 'expression'): number {
  let outcome = cache.get(text);
  if (outcome) {
    // Re-insert to mark as recently used: a Map iterates in insertion order, oldest first.
    cache.delete(text);
  } else {
    outcome = compute(text);
    if (cache.size >= EXPRESSION_CACHE_SIZE) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
  }
  cache.set(text, outcome);
  if ('reason' in outcome) throw new OrderValidationError(field, `${field}: ${outcome.reason}`);
  return outcome.value;
}

/**
 * 10^15: a number this large has 16 digits before the point, more than a double carries exactly
 * (and evaluation rounds to 15): "12345678901234567" would be 12345678901234600. No order is.
 */
const MAX_MAGNITUDE = 1e15;

/** A numeric field's value: a finite number, or a string holding a number or an expression. */
export function toNumber(value: unknown, field: string): number {
  let number: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new OrderValidationError(field, `${field}: must be a finite number`);
    number = value;
  } else if (typeof value === 'string') {
    number = evaluateExpression(value, field);
  } else {
    throw new OrderValidationError(field, `${field}: must be a number or a math expression`);
  }
  if (Math.abs(number) >= MAX_MAGNITUDE) {
    const reason = 'too large: at most 15 digits before the decimal point (a longer number loses digits)';
    throw new OrderValidationError(field, `${field}: ${reason}`);
  }
  return number;
}

export function expressionCacheSize(): number {
  return cache.size;
}

function compute(text: string): Outcome {
  if (text.length > MAX_EXPRESSION_LENGTH)
    return { reason: `expression longer than ${MAX_EXPRESSION_LENGTH} characters` };
  if (text.trim() === '') return { reason: 'empty expression' };
  try {
    // 15 significant digits, as many as a double holds exactly: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
    const value = Number(evaluate(parseExpression(tokenize(text))).toPrecision(15));
    return Number.isFinite(value) ? { value: value === 0 ? 0 : value } : { reason: 'result is not a finite number' };
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return { reason: error.message };
    // Anything else (a stack overflow included) is still a refusal, never a crash.
    return { reason: 'invalid expression' };
  }
}

function evaluate(node: ExpressionNode): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'negate':
      return -evaluate(node.operand);
    case 'binary':
      return finite(binary(node.op, evaluate(node.left), evaluate(node.right), node.pos), node.pos);
    case 'call':
      return finite(call(node.name, node.args.map(evaluate), node.pos), node.pos);
  }
}

function binary(op: string, a: number, b: number, pos: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new ExpressionSyntaxError('division by zero', pos);
      return a / b;
    default:
      return a ** b;
  }
}

function call(name: string, args: number[], pos: number): number {
  const [x = Number.NaN, y = 0] = args;
  switch (name) {
    case 'abs':
      return Math.abs(x);
    case 'round':
      return round(x, y, pos);
    case 'floor':
      return Math.floor(x);
    case 'ceil':
      return Math.ceil(x);
    case 'sqrt':
      if (x < 0) throw new ExpressionSyntaxError('square root of a negative number', pos);
      return Math.sqrt(x);
    case 'pow':
      return x ** y;
    case 'min':
      return Math.min(...args);
    default:
      return Math.max(...args);
  }
}

/** Half away from zero, at `digits` decimals (negative: tens, hundreds), without binary drift: round(1.005, 2) = 1.01. */
function round(x: number, digits: number, pos: number): number {
  if (!Number.isInteger(digits) || digits < -15 || digits > 15) {
    throw new ExpressionSyntaxError('round digits must be an integer from -15 to 15', pos);
  }
  const factor = 10 ** digits;
  const scaled = Number((Math.abs(x) * factor).toPrecision(15));
  return (Math.sign(x) * Math.round(scaled)) / factor;
}

function finite(value: number, pos: number): number {
  if (!Number.isFinite(value)) throw new ExpressionSyntaxError('result is not a finite number', pos);
  return value;
}
