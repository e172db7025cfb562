// Recursive-descent parser of numeric expressions into a small AST. Grammar (lowest first):
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/') unary)*
//   unary   := ('+' | '-') unary | power
//   power   := primary ('^' unary)?            right-associative: 2^3^2 = 2^9, -2^2 = -4
//   primary := number | name '(' sum (',' sum)* ')' | '(' sum ')'
// Names are looked up in a fixed table of functions: there are no variables, no property access
// and nothing reaches a JavaScript object, so an expression can only ever compute a number.
import { COMMA_HINT, ExpressionSyntaxError, type Operator, type Token } from './tokens.ts';

/** What a chart sends for a value it does not have: TradingView fills {{plot_0}} with NaN on a bar where the plot is na. */
const NO_VALUE_NAMES: ReadonlySet<string> = new Set(['nan', 'na']);
const NO_VALUE_HINT =
  'the sender had no value here (TradingView writes NaN for a plot or variable that is na on the bar the alert fired on)';

export const FUNCTIONS = {
  abs: [1, 1],
  round: [1, 2],
  floor: [1, 1],
  ceil: [1, 1],
  sqrt: [1, 1],
  pow: [2, 2],
  min: [1, Number.POSITIVE_INFINITY],
  max: [1, Number.POSITIVE_INFINITY],
} as const satisfies Record<string, readonly [number, number]>;
export type FunctionName = keyof typeof FUNCTIONS;

export type ExpressionNode =
  | { kind: 'number'; value: number }
  | { kind: 'negate'; operand: ExpressionNode }
  | { kind: 'binary'; op: Operator; left: ExpressionNode; right: ExpressionNode; pos: number }
  | { kind: 'call'; name: FunctionName; args: ExpressionNode[]; pos: number };

/** Deeper nesting than this is junk or an attack, never a price formula. */
export const MAX_EXPRESSION_DEPTH = 32;

function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(FUNCTIONS, name);
}

export function parseExpression(tokens: readonly Token[]): ExpressionNode {
  let index = 0;
  let depth = 0;
  const peek = (): Token => tokens[index] ?? { kind: 'end', pos: 0 };
  const next = (): Token => {
    const token = peek();
    index++;
    return token;
  };
  const fail = (token: Token): never => {
    if (token.kind === 'end') throw new ExpressionSyntaxError('unexpected end of expression', token.pos);
    const text = token.kind === 'number' ? token.text : token.kind === 'operator' ? token.op : token.kind;
    throw new ExpressionSyntaxError(
      `unexpected ${JSON.stringify(token.kind === 'name' ? token.name : text)}`,
      token.pos,
      token.kind === ',' || groupsDigits(token) ? COMMA_HINT : undefined,
    );
  };
  // "1 000", "12 345.50": a space (a no-break one too) grouping thousands, as French or Swiss text writes them;
  // "1.000.000", "1.234.567,89": points grouping them, as German text does (a second point is no decimal one).
  const groupsDigits = (token: Token): boolean => {
    const before = tokens[tokens.indexOf(token) - 1];
    if (token.kind !== 'number' || before?.kind !== 'number') return false;
    const spaced = /^\d{3}(?:\.\d*)?$/.test(token.text) && /^\d{1,3}$/.test(before.text);
    const dotted =
      /^\.\d{3}$/.test(token.text) &&
      /^\d{1,3}\.\d{3}$/.test(before.text) &&
      before.pos + before.text.length === token.pos;
    return spaced || dotted;
  };
  const isOp = (token: Token, a: Operator, b: Operator): token is Token & { kind: 'operator'; op: Operator } =>
    token.kind === 'operator' && (token.op === a || token.op === b);

  function sum(): ExpressionNode {
    let left = product();
    for (let token = peek(); isOp(token, '+', '-'); token = peek()) {
      index++;
      left = { kind: 'binary', op: token.op, left, right: product(), pos: token.pos };
    }
    return left;
  }

  function product(): ExpressionNode {
    let left = unary();
    for (let token = peek(); isOp(token, '*', '/'); token = peek()) {
      index++;
      left = { kind: 'binary', op: token.op, left, right: unary(), pos: token.pos };
    }
    return left;
  }

  function unary(): ExpressionNode {
    const token = peek();
    if (++depth > MAX_EXPRESSION_DEPTH) {
      throw new ExpressionSyntaxError(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`, token.pos);
    }
    let node: ExpressionNode;
    if (isOp(token, '+', '-')) {
      index++;
      const operand = unary();
      node = token.op === '-' ? { kind: 'negate', operand } : operand;
    } else {
      node = power();
    }
    depth--;
    return node;
  }

  function power(): ExpressionNode {
    const base = primary();
    const token = peek();
    if (token.kind === 'operator' && token.op === '^') {
      index++;
      return { kind: 'binary', op: '^', left: base, right: unary(), pos: token.pos };
    }
    return base;
  }

  function primary(): ExpressionNode {
    const token = next();
    if (token.kind === 'number') return { kind: 'number', value: token.value };
    if (token.kind === '(') {
      const inner = sum();
      expect(')');
      return inner;
    }
    if (token.kind === 'name') return call(token.name, token.pos);
    return fail(token);
  }

  function call(name: string, pos: number): ExpressionNode {
    if (!isFunctionName(name)) {
      const hint = NO_VALUE_NAMES.has(name) ? NO_VALUE_HINT : undefined;
      throw new ExpressionSyntaxError(`unknown name ${JSON.stringify(name)}`, pos, hint);
    }
    expect('(');
    const args = [sum()];
    while (peek().kind === ',') {
      index++;
      args.push(sum());
    }
    expect(')');
    const [least, most] = FUNCTIONS[name];
    if (args.length < least || args.length > most) {
      const wanted =
        least === most ? `${least}` : most === Number.POSITIVE_INFINITY ? `${least} or more` : `${least} or ${most}`;
      throw new ExpressionSyntaxError(`${name} takes ${wanted} argument${wanted === '1' ? '' : 's'}`, pos);
    }
    return { kind: 'call', name, args, pos };
  }

  function expect(kind: ')' | '('): void {
    const token = next();
    if (token.kind !== kind) {
      if (token.kind === 'end') throw new ExpressionSyntaxError(`missing "${kind}"`, token.pos);
      fail(token);
    }
  }

  const root = sum();
  const rest = peek();
  if (rest.kind !== 'end') fail(rest);
  return root;
}
