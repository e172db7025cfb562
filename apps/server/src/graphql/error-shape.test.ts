// Every refusal of /graphql is a GraphQL error naming its kind in extensions.code: the variables'
// (graphql-js), the armor's limits, and a content type Yoga does not read (415, which went out as
// the body `null`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { NO_OPERATION, UNSUPPORTED_CONTENT_TYPE } from './yoga.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/graphql', payload: payload as object });
const nested = (depth: number) => `{ user { ${'a { '.repeat(depth)}b${' }'.repeat(depth)} } }`;

it.each([
  {
    name: 'a required variable left out',
    payload: { query: 'query($k: String!) { hook(key: $k) { key } }' },
    status: 400,
    message: 'Variable "$k" of required type "String!" was not provided.',
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a variable of the wrong type',
    payload: { query: 'query($k: String!) { hook(key: $k) { key } }', variables: { k: 5 } },
    status: 200,
    message: 'String cannot represent a non string value: 5',
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a query past the depth limit',
    payload: { query: nested(12) },
    status: 200,
    message: 'Syntax Error: Query depth limit of 10 exceeded, found 14.',
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'a query past the aliases limit',
    payload: { query: `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: user { email }`).join(' ')} }` },
    status: 200,
    message: 'Syntax Error: Aliases limit of 15 exceeded, found 20.',
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
])('answers $name with an error naming its code, the message and status as they were', async (c) => {
  const res = await post(c.payload);
  expect(res.statusCode).toBe(c.status);
  expect(res.json().errors).toEqual([
    expect.objectContaining({
      message: c.message,
      extensions: { code: c.code },
    }),
  ]);
});

it('answers a body of a content type it does not read with a GraphQL error, not `null`', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'text/plain' },
    payload: '{ user { email } }',
  });
  expect(res.statusCode).toBe(415);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ errors: [{ message: UNSUPPORTED_CONTENT_TYPE, extensions: { code: 'BAD_REQUEST' } }] });
});

it.each([
  {
    name: 'a body that is no JSON',
    headers: { 'content-type': 'application/json' },
    payload: '{ "query": ',
    status: 400,
    message: /^Invalid JSON: /,
    extensions: { code: 'BAD_USER_INPUT', status: 'ValidationError' },
  },
  {
    name: 'a body without a content type',
    headers: { 'content-type': '' },
    payload: '{"query":"{ user { email } }"}',
    status: 400,
    message: /^Unsupported content type$/,
    extensions: { code: 'BAD_USER_INPUT', status: 'ValidationError' },
  },
  {
    name: 'a body past the size limit',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ query: `{ user { email } }${' '.repeat(1024 * 1024)}` }),
    status: 413,
    message: /^Request body is too large$/,
    extensions: { code: 'PAYLOAD_TOO_LARGE', status: 'ValidationError' },
  },
])('answers $name, refused before Yoga reads it, as a GraphQL error too', async (c) => {
  const res = await t.app.inject({ method: 'POST', url: '/graphql', headers: c.headers, payload: c.payload });
  expect(res.statusCode).toBe(c.status);
  expect(res.json()).toEqual({ errors: [{ message: expect.stringMatching(c.message), extensions: c.extensions }] });
});

it.each(['{}', '[]', 'null', '0', 'false', '"q"'])(
  'answers the JSON body %s (no operation) with a coded error and no internals',
  async (payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: [{ message: NO_OPERATION, extensions: { code: 'BAD_REQUEST' } }] });
  },
);
