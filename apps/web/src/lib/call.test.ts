import { CombinedError, type OperationResult } from '@urql/core';
import { describe, expect, it } from 'vitest';
import { firstError, unwrap } from './call.ts';

const result = (fields: Partial<OperationResult<{ ok: boolean }>>) =>
  Promise.resolve({ stale: false, hasNext: false, ...fields } as OperationResult<{ ok: boolean }>);

describe('call wrapper (SPEC §8)', () => {
  it('resolves with the data', async () => {
    await expect(unwrap(result({ data: { ok: true } }))).resolves.toEqual({ ok: true });
  });

  it('rejects with the network error first', async () => {
    const networkError = new Error('Failed to fetch');
    const error = new CombinedError({ networkError, graphQLErrors: [{ message: 'later' }] });
    await expect(unwrap(result({ error }))).rejects.toBe(networkError);
  });

  it('else rejects with the first GraphQL error, message unprefixed', async () => {
    const error = new CombinedError({ graphQLErrors: [{ message: 'Password too weak.' }, { message: 'second' }] });
    const rejection = unwrap(result({ error }));
    await expect(rejection).rejects.toBeInstanceOf(Error);
    await expect(rejection).rejects.toHaveProperty('message', 'Password too weak.');
  });

  it("rejects an answer without data as 'No Content'", async () => {
    await expect(unwrap(result({ data: undefined }))).rejects.toThrow('No Content');
  });

  it('falls back to the combined error', () => {
    const error = new CombinedError({});
    expect(firstError(error)).toBe(error);
  });
});
