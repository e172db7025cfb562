import { describe, expect, it } from 'vitest';
import { etradeError } from './api.ts';

const answer = (status: number, body: unknown) => ({ status, headers: new Headers(), body });
const ORDER_PATH = '/v1/accounts/abc/orders/place.json';

describe('etradeError', () => {
  it("a gateway's 408, 421, 425 or 499 to an order is no refusal: the outcome is unknown", () => {
    for (const status of [408, 421, 425, 499]) {
      expect(etradeError(answer(status, undefined), true, ORDER_PATH), String(status)).toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: true,
      });
    }
  });

  it("E*TRADE's own 400 stays a refusal", () => {
    const body = { Error: { code: '1033', message: 'Invalid symbol' } };
    expect(etradeError(answer(400, body), true, ORDER_PATH)).toMatchObject({
      kind: 'InvalidOrder',
      outcomeUnknown: false,
    });
  });
});
