// Reads the input of normalizeOrder into plain records: the hook passes the raw text
// ('{"symbol":"AAPL","action":"buy","quantity":1}'), the playground a parsed object.
// Only the three levels an order has (top, legs[i], extra) are copied; anything deeper is left
// for the schema to refuse at a glance, so nested junk costs nothing. Null means "not given".
import { OrderValidationError } from '../errors.ts';
import { SEVERAL_REFUSAL, whyNotJson } from './not-json.ts';
import { RAW_ORDER_FIELDS } from './raw-schema.ts';

/** 64 KiB: the hook's body limit in bytes, and this reader's in characters. */
export const MAX_BODY_LENGTH = 65_536;
const MAX_FIELDS = 200;
/** Keys that could reach an object's prototype if a later step ever copied them. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type Fields = Record<string, unknown>;

export function readBody(input: unknown): Fields {
  let value = input;
  if (typeof input === 'string') {
    if (input.length > MAX_BODY_LENGTH) throw refuseBody(`longer than ${MAX_BODY_LENGTH} characters`);
    try {
      value = JSON.parse(withoutByteOrderMark(input));
    } catch (error) {
      throw whyNotJson(withoutByteOrderMark(input), error);
    }
  }
  const body = copyFields(value, 'body');
  if (!body)
    throw refuseBody(
      isListOfOrders(value)
        ? SEVERAL_REFUSAL
        : isOneInList(value)
          ? LIST
          : encodedTwice(value)
            ? TWICE
            : 'must be a JSON object',
    );
  if (typeof input === 'string') {
    // JSON.parse keeps the last of two equal keys: {"action": "buy", …, "action": "sell"} would sell.
    const twice = duplicateKey(input);
    if (twice !== undefined) throw new OrderValidationError(twice, `${twice}: given twice`);
  }
  const wrapper = wrapperOf(body);
  if (wrapper !== undefined) {
    throw new OrderValidationError(
      wrapper,
      `${wrapper}: unknown field (the order's fields go at the top level: send the object inside "${wrapper}" itself)`,
    );
  }
  if (Array.isArray(body.legs)) {
    if (body.legs.length > 64) throw new OrderValidationError('legs', 'legs: too many legs');
    body.legs = body.legs.map((leg: unknown, i) => copyFields(leg, `legs[${i}]`) ?? leg);
  }
  const extra = copyFields(body.extra, 'extra', false);
  if (extra) body.extra = extra;
  return body;
}

const ORDER_FIELDS: ReadonlySet<string> = new Set(RAW_ORDER_FIELDS);

/**
 * `{"order": {"symbol": …}}`: an order wrapped in a field of its own, as a script or a tool's
 * template nests it (`data`, `alert`, `payload`): the field the order sits in, else undefined.
 */
function wrapperOf(body: Fields): string | undefined {
  if (body.symbol !== undefined || body.legs !== undefined) return undefined;
  return Object.keys(body).find((key) => {
    const inner = body[key];
    if (ORDER_FIELDS.has(key) || typeof inner !== 'object' || inner === null || Array.isArray(inner)) return false;
    return Object.hasOwn(inner, 'symbol') || Object.hasOwn(inner, 'legs');
  });
}

/** `[{…}, {…}]`: several orders in one body, as a list. */
function isListOfOrders(value: unknown): boolean {
  return Array.isArray(value) && value.length > 1 && value.every((item) => typeof item === 'object' && item !== null);
}

/** `[{…}]`: one order inside an array, as Zapier's Webhooks send it with "Wrap Request In Array" on. */
function isOneInList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 1 && typeof value[0] === 'object' && value[0] !== null;
}

const LIST =
  'must be a JSON object, not an array holding one: send the object itself (in Zapier, Wrap Request In Array: No)';

const TWICE =
  'must be a JSON object, not a JSON string holding one: the order was encoded twice (JSON.stringify of JSON text); send the object itself';

/** `"{\"symbol\": \"AAPL\", …}"`: JSON text of an object, quoted as a string once more (a sender's tool encoding it again). */
function encodedTwice(value: unknown): boolean {
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return false;
  try {
    const inner: unknown = JSON.parse(value);
    return typeof inner === 'object' && inner !== null && !Array.isArray(inner);
  } catch {
    return false;
  }
}

/** The text without a leading byte-order mark: invisible in an alert editor, fatal to JSON.parse. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

interface Frame {
  /** The keys seen so far in an object; null in an array. */
  keys: Set<string> | null;
  /** The container's field name: '' for the body, `legs[0]`, `extra`. */
  path: string;
  /** The current key (object) or index (array). */
  at: string | number;
}

/**
 * The first key given twice in one object of `text` (valid JSON), named as its field
 * (`action`, `legs[1].quantity`, `extra.note`); undefined when every key is given once.
 */
export function duplicateKey(text: string): string | undefined {
  const stack: Frame[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      let end = i + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1;
      const top = stack.at(-1);
      if (top?.keys && expectKey) {
        const raw = text.slice(i + 1, end);
        const key: string = raw.includes('\\') ? JSON.parse(`"${raw}"`) : raw;
        if (top.keys.has(key)) return fieldOf(top.path, key);
        top.keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      const parent = stack.at(-1);
      const path = parent ? fieldOf(parent.path, parent.at) : '';
      stack.push({ keys: ch === 0x7b ? new Set() : null, path, at: 0 });
      expectKey = ch === 0x7b;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (ch === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.keys) expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
    i++;
  }
  return undefined;
}

function fieldOf(path: string, at: string | number): string {
  if (typeof at === 'number') return `${path}[${at}]`;
  return path === '' ? at : `${path}.${at}`;
}

/** A fresh record of an object's own fields, or undefined when `value` is not a plain object. */
function copyFields(value: unknown, path: string, dropNulls = true): Fields | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const keys = Object.keys(value);
  if (keys.length > MAX_FIELDS) throw new OrderValidationError(path, `${path}: more than ${MAX_FIELDS} fields`);
  const fields: Fields = {};
  for (const key of keys) {
    if (FORBIDDEN_KEYS.has(key)) {
      const field = path === 'body' ? key : `${path}.${key}`;
      throw new OrderValidationError(field, `${field}: field name not allowed`);
    }
    const item: unknown = (value as Fields)[key];
    if (item !== null || !dropNulls) fields[key] = item;
  }
  return fields;
}

function refuseBody(reason: string): OrderValidationError {
  return new OrderValidationError('body', `body: ${reason}`);
}
