// Generated hook requests for the bad-input drill: valid orders, hostile bodies (deep nesting,
// huge numbers, 1e309, NaN text, duplicate keys, __proto__ and constructor keys, lone surrogates,
// empty and BOM bodies, garbage bytes), byte-level mutations of valid ones, and wrong content
// types. Each case says what it may get: 'valid' must place (201), 'invalid' must not, 'either'
// may go both ways — never a 5xx.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

export const BODY_LIMIT = 65_536;

export type Expect = 'valid' | 'invalid' | 'either';

export interface Case {
  kind: string;
  body: Buffer;
  contentType: string | undefined;
  expect: Expect;
  /** Send to the live hook (orders at the paper broker) or the test hook. */
  live: boolean;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'text/plain;charset=UTF-8'];
const OTHER_TYPES = [
  undefined,
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=latin1',
  '*/*',
  'garbage',
];

const utf8 = (text: string) => Buffer.from(text, 'utf8');
// Random, not a counter: a mutated body's edit can turn a counter's id into a later one (a
// deleted digit: bad-…-2871 → bad-…-287), and that valid order was then refused as a reuse.
const uniqueId = () => `bad-${randomUUID()}`;

const symbol = fc.constantFrom('AAPL', 'MSFT', 'SPY', 'TSLA', 'QQQ');
const action = fc.constantFrom('buy'); // a paper cash account refuses a sell of what it does not hold
const quantity = fc.integer({ min: 1, max: 50 });
/** A valid order with its own client_id, as an object (client_id added when sending). */
const validOrder = fc.record({ symbol, action, quantity });

const withId = (order: Record<string, unknown>) => ({ ...order, client_id: uniqueId() });

const valid: fc.Arbitrary<Omit<Case, 'live'>> = fc
  .tuple(validOrder, fc.constantFrom(...JSON_TYPES), fc.boolean(), fc.constantFrom('', ' ', '\n\t '))
  .map(([order, contentType, bom, pad]) => ({
    kind: bom ? 'valid+bom' : 'valid',
    body: utf8(`${bom ? '\ufeff' : ''}${pad}${JSON.stringify(withId(order))}${pad}`),
    contentType,
    expect: 'valid',
  }));

const nested = fc.tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : '}';
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
});

/** Not an order at all: refused whatever the content type. */
const notAnOrder = fc.oneof(
  nested,
  fc.constantFrom(
    '',
    '\ufeff',
    '\ufeff\ufeff{}',
    'null',
    'true',
    '[]',
    '{}',
    '"AAPL"',
    'NaN',
    '{"symbol":"AAPL","action":"buy","quantity":NaN}',
    '{"symbol":"AAPL","action":"buy","quantity":Infinity}',
    '{"symbol":"AAPL","action":"buy","quantity":1e309}',
    '{"symbol":"AAPL","action":"buy","quantity":-1e309}',
    '{"symbol":"AAPL","action":"buy","quantity":"NaN"}',
    '{"symbol":"AAPL","action":"buy","quantity":"Infinity"}',
    '{"symbol":"AAPL","action":"buy","quantity":0}',
    '{"symbol":"AAPL","action":"buy","quantity":-1}',
    '{"symbol":"\\ud800","action":"buy","quantity":1}',
    '{"symbol":"AAPL\\u0000","action":"buy","quantity":1}',
    '{"__proto__":{"symbol":"AAPL","action":"buy","quantity":1}}',
    '{"constructor":{"prototype":{"quantity":1}},"symbol":"AAPL"}',
    '{"symbol":"AAPL","action":"buy","quantity":{"__proto__":1}}',
    '{"symbol":"AAPL","action":"buy","quantity":"1+"}',
    '{"symbol":"AAPL","action":"buy","quantity":[1]}',
    '{"symbol":["AAPL"],"action":"buy","quantity":1}',
    '{"symbol":"AAPL","action":"buy","quantity":1,',
    '{"symbol":"AAPL" "action":"buy"}',
    "{'symbol':'AAPL'}",
    '{"symbol":"AAPL","action":"buy","quantity":1}}',
    '<xml/>',
    'symbol=AAPL&action=buy&quantity=1',
  ),
);

/** Odd but possibly an order (the order language decides): any answer but a 5xx. */
const borderline = fc.oneof(
  fc.constantFrom(
    '{"symbol":"AAPL","action":"buy","quantity":1e-400}',
    '{"symbol":"AAPL","action":"buy","quantity":123456789012345678901234567890}',
    '{"symbol":"AAPL","action":"buy","quantity":1,"comment":"\\udfff"}',
    '{"symbol":"AAPL","action":"buy","quantity":"{{close}}"}',
    '{"symbol":"AAPL","action":"buy","quantity":"((((((((((1))))))))))"}',
  ),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
);

const hostile: fc.Arbitrary<Omit<Case, 'live'>> = fc
  .tuple(
    fc.oneof(
      notAnOrder.map((t) => [t, 'invalid'] as const),
      borderline.map((t) => [t, 'either'] as const),
    ),
    fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES),
  )
  .map(([[text, expect], contentType]) => ({ kind: `hostile-${expect}`, body: utf8(text), contentType, expect }));

/** Raw bytes: garbage, or a lone surrogate / overlong sequence as invalid UTF-8 inside JSON. */
const bytes: fc.Arbitrary<Omit<Case, 'live'>> = fc.oneof(
  fc.uint8Array({ maxLength: 400 }).map((b) => ({
    kind: 'bytes',
    body: Buffer.from(b),
    contentType: 'application/json',
    expect: 'either' as Expect,
  })),
  fc.constantFrom([0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xff, 0xfe], [0xf4, 0x90, 0x80, 0x80]).map((seq) => ({
    kind: 'bad-utf8',
    body: Buffer.concat([utf8('{"symbol":"AAPL'), Buffer.from(seq), utf8(`","action":"buy","quantity":1}`)]),
    contentType: 'application/json',
    expect: 'invalid' as Expect,
  })),
);

/** Valid JSON whose meaning is odd: duplicate keys, prototype keys, extra fields, big numbers. */
const odd: fc.Arbitrary<Omit<Case, 'live'>> = fc
  .tuple(
    validOrder,
    fc.constantFrom(
      (t: string) => t.replace('{', '{"symbol":"MSFT",'),
      (t: string) => t.replace('{', '{"quantity":"x",'),
      (t: string) => t.replace('{', '{"__proto__":{"quantity":5},'),
      (t: string) => t.replace('{', '{"constructor":{"name":"x"},'),
      (t: string) => t.replace('{', '{"prototype":1,"toString":"x",'),
      (t: string) => t.replace('{', '{"quantity":1e309,'),
      (t: string) => t.replace('{', '{"extra":[[[[[[[[[[1]]]]]]]]]],'),
      (t: string) => t.replace(/"quantity":\d+/, '"quantity":1e309'),
      (t: string) => t.replace(/"quantity":\d+/, '"quantity":99999999999999999999'),
      (t: string) => t.replace(/"quantity":\d+/, '"quantity":"NaN"'),
      (t: string) => t.replace(/"action":"\w+"/, '"action":"BUY"'),
    ),
    fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES),
  )
  .map(([order, edit, contentType]) => ({
    kind: 'odd',
    body: utf8(edit(JSON.stringify(withId(order)))),
    contentType,
    expect: 'either' as Expect,
  }));

/** Byte-level mutations of a valid body: insert, delete or replace characters. */
const mutated: fc.Arbitrary<Omit<Case, 'live'>> = fc
  .tuple(
    validOrder,
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.string({ maxLength: 3 })), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([order, edits]) => {
    let text = JSON.stringify(withId(order));
    for (const [at, op, s] of edits) {
      const i = at % (text.length + 1);
      if (op === 'insert') text = text.slice(0, i) + s + text.slice(i);
      else if (op === 'delete') text = text.slice(0, i) + text.slice(i + 1);
      else text = text.slice(0, i) + s + text.slice(i + s.length);
    }
    return { kind: 'mutated', body: utf8(text), contentType: 'application/json', expect: 'either' as Expect };
  });

/** A valid order padded with spaces to exactly `size` bytes. */
export function paddedOrder(size: number): Buffer {
  const text = JSON.stringify(withId({ symbol: 'AAPL', action: 'buy', quantity: 1 }));
  return utf8(text + ' '.repeat(Math.max(0, size - Buffer.byteLength(text))));
}

const sized: fc.Arbitrary<Omit<Case, 'live'>> = fc.constantFrom(-1, 0, 1, 1000).map((over) => ({
  kind: over > 0 ? 'over-limit' : 'at-limit',
  body: paddedOrder(BODY_LIMIT + over),
  contentType: 'application/json',
  expect: (over > 0 ? 'invalid' : 'valid') as Expect,
}));

export const hookCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      { weight: 2, arbitrary: valid },
      { weight: 5, arbitrary: hostile },
      { weight: 1, arbitrary: bytes },
      { weight: 3, arbitrary: odd },
      { weight: 5, arbitrary: mutated },
      { weight: 1, arbitrary: sized },
    ),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([c, pick]) => ({ ...c, live: pick === 0 })); // a quarter at the live hook (paper orders)
