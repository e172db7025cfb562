import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderValidationError } from '../errors.ts';
import {
  EXPRESSION_CACHE_SIZE,
  evaluateExpression,
  expressionCacheSize,
  MAX_EXPRESSION_LENGTH,
  toNumber,
} from './evaluate.ts';
import { MAX_EXPRESSION_DEPTH } from './parser.ts';

const COMMA = 'a number takes "." for decimals and no thousands separator (1000.5)';
const PERCENT =
  'a percentage is given as a number in a field of its own: quantity_type percent_of_equity or percent_of_position ' +
  '(50 means 50 %), stop_price_percent, stop_loss_price_percent';
const NO_VALUE =
  'the sender had no value here (TradingView writes NaN for a plot or variable that is na on the bar the alert fired on)';

function refusal(text: string, field = 'limit_price'): string {
  try {
    evaluateExpression(text, field);
  } catch (error) {
    expect(error).toBeInstanceOf(OrderValidationError);
    expect((error as OrderValidationError).field).toBe(field);
    return (error as Error).message;
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('evaluateExpression', () => {
  it.each([
    ['42', 42],
    [' 101.5 ', 101.5],
    ['.5', 0.5],
    ['5.', 5],
    // TradingView writes its values fixed-point with a decimal point ({{strategy.order.contracts}} of a
    // crypto strategy: 1.000, 0.500); a point is never a thousands separator here.
    ['1.000', 1],
    ['2.125', 2.125],
    ['1e3', 1000],
    ['2.5E-1', 0.25],
    ['101.5 * 1.01', 102.515],
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['24 / 4 / 3', 2],
    ['3 × 4 ÷ 2', 6],
    ['7 − 2', 5],
    ['2 ^ 10', 1024],
    ['2 ** 10', 1024],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['--3', 3],
    ['+3', 3],
    ['-(1 + 2)', -3],
    ['abs(-3.5)', 3.5],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['round(1.005, 2)', 1.01],
    ['round(1234.5, -2)', 1200],
    ['floor(2.7)', 2],
    ['ceil(2.1)', 3],
    ['min(3, 1, 2)', 1],
    ['max(3, 1, 2, 9.5)', 9.5],
    ['max(4)', 4],
    ['sqrt(16)', 4],
    ['pow(2, 8)', 256],
    ['ROUND(150.25 * 0.98, 2)', 147.25],
    ['floor(1000 / 150.25)', 6],
    ['0 * -1', 0],
    // Binary noise never reaches an order: 0.30000000000000004 would pass no maxQuantity of 0.3.
    ['0.1 + 0.2', 0.3],
    ['1.1 * 3', 3.3],
    ['4.35 * 100', 435],
    ['0.7 + 0.1', 0.8],
  ])('%s = %d', (text, value) => {
    expect(evaluateExpression(text)).toBe(value);
  });

  it.each([
    ['1 + 2x', 'limit_price: unexpected "x" at position 5'],
    ['', 'limit_price: empty expression'],
    ['   ', 'limit_price: empty expression'],
    ['1 +', 'limit_price: unexpected end of expression at position 3'],
    ['(1 + 2', 'limit_price: missing ")" at position 6'],
    ['1 + 2)', 'limit_price: unexpected ")" at position 5'],
    ['1 2', 'limit_price: unexpected "2" at position 2'],
    // The number as written, not as read: no ".3" in "1.2.3" is a "0.3".
    ['1.2.3', 'limit_price: unexpected ".3" at position 3'],
    ['100 1e3', 'limit_price: unexpected "1e3" at position 4'],
    ['(1) 00.50', 'limit_price: unexpected "00.50" at position 4'],
    ['1 / 0', 'limit_price: division by zero at position 2'],
    ['1 / (2 - 2)', 'limit_price: division by zero at position 2'],
    ['1e309', 'limit_price: number out of range at position 0'],
    ['10 ^ 400', 'limit_price: result is not a finite number at position 3'],
    ['1e300 * 1e300', 'limit_price: result is not a finite number at position 6'],
    ['sqrt(-1)', 'limit_price: square root of a negative number at position 0'],
    ['(-8) ^ 0.5', 'limit_price: result is not a finite number at position 5'],
    ['foo(1)', 'limit_price: unknown name "foo" at position 0'],
    // A plot that is na on the bar: TradingView sends NaN, which says nothing as an "unknown name".
    ['NaN', `limit_price: unknown name "nan" at position 0: ${NO_VALUE}`],
    ['na', `limit_price: unknown name "na" at position 0: ${NO_VALUE}`],
    ['NaN * 0.99', `limit_price: unknown name "nan" at position 0: ${NO_VALUE}`],
    ['Infinity', 'limit_price: unknown name "infinity" at position 0'],
    ['abs(1, 2)', 'limit_price: abs takes 1 argument at position 0'],
    ['round(1, 2, 3)', 'limit_price: round takes 1 or 2 arguments at position 0'],
    ['pow(2)', 'limit_price: pow takes 2 arguments at position 0'],
    ['round(1, 0.5)', 'limit_price: round digits must be an integer from -15 to 15 at position 0'],
    ['0x10', 'limit_price: unexpected "x10" at position 1'],
    // A thousands separator or a decimal comma, and a percent sign: each says how the field takes it.
    ['1,5', `limit_price: unexpected "," at position 1: ${COMMA}`],
    ['1,000.50', `limit_price: unexpected "," at position 1: ${COMMA}`],
    // A space grouping thousands, as French or Swiss text writes "1 000" (a no-break space too).
    ['1 000', `limit_price: unexpected "000" at position 2: ${COMMA}`],
    ['12\u202f345.50', `limit_price: unexpected "345.50" at position 3: ${COMMA}`],
    // Points grouping thousands, as German text writes "1.000.000": the second point says so. One point
    // alone ("1.000") is a decimal point, as TradingView's values and JSON write it: that reads 1.
    ['1.000.000', `limit_price: unexpected ".000" at position 5: ${COMMA}`],
    ['1.234.567,89', `limit_price: unexpected ".567" at position 5: ${COMMA}`],
    ['1.000 .000', 'limit_price: unexpected ".000" at position 6'],
    ['10%', `limit_price: unexpected "%" at position 2: ${PERCENT}`],
    ['{{close}}', 'limit_price: placeholder {{close}} was not replaced by the sender at position 0'],
    ['{{close}} * 1.01', 'limit_price: placeholder {{close}} was not replaced by the sender at position 0'],
    ['%last_price% * 0.995', 'limit_price: placeholder %last_price% was not replaced by the sender at position 0'],
    ['process.exit()', 'limit_price: unexpected "." at position 7'],
    ['process', 'limit_price: unknown name "process" at position 0'],
    ["constructor.constructor('x')()", 'limit_price: unexpected "." at position 11'],
    ['1 + 😀', 'limit_price: unexpected "😀" (U+1F600) at position 4'],
  ])('refuses %j', (text, message) => {
    expect(refusal(text)).toBe(message);
  });

  it('refuses text longer than the limit and nesting deeper than the limit', () => {
    expect(refusal('1+'.repeat(MAX_EXPRESSION_LENGTH))).toBe(
      `limit_price: expression longer than ${MAX_EXPRESSION_LENGTH} characters`,
    );
    const deep = `${'('.repeat(MAX_EXPRESSION_DEPTH)}1${')'.repeat(MAX_EXPRESSION_DEPTH)}`;
    expect(refusal(deep)).toMatch(/nested deeper than 32 levels at position \d+/);
    const shallow = `${'('.repeat(MAX_EXPRESSION_DEPTH - 2)}1${')'.repeat(MAX_EXPRESSION_DEPTH - 2)}`;
    expect(evaluateExpression(shallow)).toBe(1);
    expect(refusal(`${'-'.repeat(40)}1`)).toMatch(/nested deeper/);
  });

  it('names the field in cached refusals too', () => {
    expect(refusal('1 +', 'quantity')).toBe('quantity: unexpected end of expression at position 3');
    expect(refusal('1 +', 'stop_price')).toBe('stop_price: unexpected end of expression at position 3');
  });

  it('keeps the cache bounded', () => {
    for (let i = 0; i < EXPRESSION_CACHE_SIZE + 50; i++) evaluateExpression(`${i} + 1`);
    expect(expressionCacheSize()).toBe(EXPRESSION_CACHE_SIZE);
    expect(evaluateExpression('0 + 1')).toBe(1);
  });
});

describe('toNumber', () => {
  it('passes finite numbers and evaluates text', () => {
    expect(toNumber(3, 'quantity')).toBe(3);
    expect(toNumber('3 * 2', 'quantity')).toBe(6);
  });

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], [true], [null], [{}], [[1]]])('refuses %j', (value) => {
    expect(() => toNumber(value, 'quantity')).toThrow(OrderValidationError);
  });
});

// A reference printer and evaluator for generated expression trees.
type Tree =
  | number
  | { op: '+' | '-' | '*' | '/'; left: Tree; right: Tree }
  | { fn: 'abs' | 'min' | 'max'; args: Tree[] };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -1000, max: 1000 }),
    fc.record({ op: fc.constantFrom('+', '-', '*', '/'), left: tie('tree'), right: tie('tree') }),
    fc.record({ fn: fc.constant('abs'), args: fc.tuple(tie('tree')) }),
    fc.record({ fn: fc.constantFrom('min', 'max'), args: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }) }),
  ),
})).tree;

function print(node: Tree): string {
  if (typeof node === 'number') return node < 0 ? `(${node})` : String(node);
  if ('op' in node) return `(${print(node.left)} ${node.op} ${print(node.right)})`;
  return `${node.fn}(${node.args.map(print).join(', ')})`;
}

function reference(node: Tree): number {
  if (typeof node === 'number') return node;
  if ('fn' in node) {
    const args = node.args.map(reference);
    return node.fn === 'abs' ? Math.abs(args[0] ?? 0) : node.fn === 'min' ? Math.min(...args) : Math.max(...args);
  }
  const a = reference(node.left);
  const b = reference(node.right);
  if (node.op === '/' && b === 0) return Number.NaN;
  return node.op === '+' ? a + b : node.op === '-' ? a - b : node.op === '*' ? a * b : a / b;
}

describe('evaluateExpression properties', () => {
  it('computes what JavaScript arithmetic computes, or refuses with the typed error', () => {
    fc.assert(
      fc.property(tree, (node) => {
        const text = print(node);
        const expected = reference(node);
        if (text.length > MAX_EXPRESSION_LENGTH || !Number.isFinite(expected)) {
          expect(() => evaluateExpression(text)).toThrow(OrderValidationError);
          return;
        }
        try {
          // To 15 significant digits, as the evaluator gives results (binary noise off).
          const clean = Number(expected.toPrecision(15));
          expect(evaluateExpression(text)).toBe(clean === 0 ? 0 : clean);
        } catch (error) {
          // Only depth or an intermediate division by zero may refuse a finite reference result.
          expect(error).toBeInstanceOf(OrderValidationError);
          expect((error as Error).message).toMatch(/nested deeper|division by zero|not a finite/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  const hostile = fc.constantFrom(
    "constructor.constructor('return process')().exit()",
    'process.exit()',
    'this',
    'globalThis',
    '__proto__',
    'Function("x")()',
    'eval("1")',
    'require("fs")',
    'import("fs")',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal is the attack being tried
    '`${1}`',
    'a=1',
    '[]+{}',
    'x => x',
    'new Date()',
    'toString()',
    'valueOf()',
    'hasOwnProperty(1)',
    'constructor(1)',
    '__defineGetter__(1)',
  );
  const alphabet = fc.constantFrom(
    ...'0123456789.eE+-*/^×÷−(),abcdefghijklmnopqrstuvwxyz_ {}%$\'"`[]=;:!?<>&|\\\n'.split(''),
  );

  it('never throws anything but OrderValidationError and never runs code', () => {
    const exit = process.exit;
    let exited = false;
    process.exit = (() => {
      exited = true;
    }) as typeof process.exit;
    try {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ maxLength: 300 }),
            fc.string({ unit: alphabet, maxLength: 80 }),
            fc.tuple(hostile, fc.string({ unit: alphabet, maxLength: 10 })).map(([a, b]) => a + b),
            fc
              .array(fc.constantFrom('(', ')', '-', '1', '^', 'max(', ','), { maxLength: 300 })
              .map((parts) => parts.join('')),
          ),
          (text) => {
            try {
              const value = evaluateExpression(text, 'limit_price');
              expect(Number.isFinite(value)).toBe(true);
            } catch (error) {
              expect(error).toBeInstanceOf(OrderValidationError);
              expect((error as OrderValidationError).message.startsWith('limit_price: ')).toBe(true);
            }
          },
        ),
        { numRuns: 5000 },
      );
    } finally {
      process.exit = exit;
    }
    expect(exited).toBe(false);
  });
});
