// Reads the input of normalizeOrder into plain records: the hook passes the raw text
// ('{"symbol":"AAPL","action":"buy","quantity":1}'), the playground a parsed object.
// Only the three levels an order has (top, legs[i], extra) are copied; anything deeper is left
// for the schema to refuse at a glance, so nested junk costs nothing. Null means "not given".
import { OrderValidationError } from '../errors.ts';

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
      throw refuseBody(`not valid JSON (${error instanceof Error ? error.message : 'unreadable'})`);
    }
  }
  const body = copyFields(value, 'body');
  if (!body) throw refuseBody('must be a JSON object');
  if (Array.isArray(body.legs)) {
    if (body.legs.length > 64) throw new OrderValidationError('legs', 'legs: too many legs');
    body.legs = body.legs.map((leg: unknown, i) => copyFields(leg, `legs[${i}]`) ?? leg);
  }
  const extra = copyFields(body.extra, 'extra', false);
  if (extra) body.extra = extra;
  return body;
}

/** The text without a leading byte-order mark: invisible in an alert editor, fatal to JSON.parse. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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
