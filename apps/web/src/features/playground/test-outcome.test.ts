import { normalizeOrder } from '@router/orders';
import { CombinedError } from '@urql/core';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { AccountChoice } from './connectors.ts';
import { CONNECT_FIRST, pickEmoji, prepareTest, previewOutcome, RECONNECT } from './test-outcome.ts';

const choice = (isActive: boolean): AccountChoice => ({
  value: 'c1 A',
  connectorKey: 'c1',
  accountId: 'A',
  isActive,
  label: 'A',
});

describe('test outcome (SPEC §4, §8)', () => {
  it('checks the connector before the text', () => {
    expect(prepareTest('{', undefined)).toEqual({ kind: 'warning', message: CONNECT_FIRST, connect: true });
    expect(prepareTest('{', choice(false))).toEqual({ kind: 'warning', message: RECONNECT, connect: true });
  });

  it('reports the repair error with its position', () => {
    expect(prepareTest('{"a": "\\u12"}', choice(true))).toEqual({
      kind: 'error',
      name: 'Invalid JSON',
      message: expect.stringMatching(/^Invalid unicode character .* at position 7$/),
    });
  });

  it('sends repaired JSON, with the strict body the webhook would take', () => {
    expect(prepareTest("{a: 'b', c: True,}", choice(true))).toEqual({
      request: { connectorKey: 'c1', accountId: 'A', data: '{"a":"b","c":true}' },
      strictBody: '{\n  "a": "b",\n  "c": true\n}',
    });
  });

  it('sends strict JSON as typed, with no repaired body', () => {
    expect(prepareTest('{"a": "b"}', choice(true))).toEqual({
      request: { connectorKey: 'c1', accountId: 'A', data: '{"a": "b"}' },
    });
    // Read again by the server as the hook reads it: 1e400 is refused there, never "not given".
    const huge = '{"symbol": "AAPL", "action": "buy", "quantity": 1, "limit_price": 1e400}';
    expect(prepareTest(huge, choice(true))).toEqual({ request: { connectorKey: 'c1', accountId: 'A', data: huge } });
    expect(normalizeOrder(huge)).toMatchObject({ ok: false, error: { field: 'limit_price' } });
    expect(normalizeOrder(JSON.stringify(JSON.parse(huge)))).toMatchObject({ ok: true, order: { type: 'market' } });
  });

  it('turns the answer into a box', () => {
    expect(previewOutcome({ id: '1', status: 'filled', price: null, _x: 1 }, undefined)).toEqual({
      kind: 'success',
      fields: { id: '1', status: 'filled' },
    });
    expect(previewOutcome({ status: 'rejected', status_description: 'No' }, undefined)).toEqual({
      kind: 'warning',
      message: 'No',
    });
    expect(previewOutcome(null, undefined).kind).toBe('warning');
    const graphQLErrors = [new GraphQLError('Broker down', { extensions: { status: 'ExecutionError' } })];
    expect(previewOutcome(undefined, new CombinedError({ graphQLErrors }))).toEqual({
      kind: 'error',
      name: 'ExecutionError',
      message: 'Broker down',
    });
    const network = previewOutcome(undefined, new CombinedError({ networkError: new Error('offline') }));
    expect(network).toEqual({ kind: 'error', name: 'Error', message: 'offline' });
  });

  it('picks an emoji of the kind', () => {
    expect(pickEmoji('success', () => 0)).toBe('🚀');
    expect(pickEmoji('error', () => 0.999)).toBe('🐛');
  });
});
