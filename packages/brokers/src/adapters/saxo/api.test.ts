import { describe, expect, it } from 'vitest';
import { saxoError } from './api.ts';

const answer = (status: number, body: unknown) => ({ status, headers: new Headers(), body });

describe('saxoError', () => {
  it("a gateway's 408, 421, 425 or 499 to an order is no refusal: the outcome is unknown", () => {
    for (const status of [408, 421, 425, 499]) {
      expect(saxoError(answer(status, undefined), true), String(status)).toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: true,
      });
    }
  });

  it("Saxo's own 409 (the same order within 15 s) stays what it documents", () => {
    expect(saxoError(answer(409, undefined), true)).toMatchObject({ kind: 'DuplicateOrder', outcomeUnknown: false });
  });
});
