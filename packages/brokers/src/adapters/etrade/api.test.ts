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

  it("a gateway's long text page is clipped, its JSON read for the message, not shown whole", () => {
    const page = `java.lang.IllegalStateException: upstream failed\n${'\tat com.etrade.Gateway.call(Gateway.java:42)\n'.repeat(40)}`;
    const error = etradeError(answer(500, page), false, '/v1/accounts/list.json');
    expect(error.message.length).toBeLessThan(320);
    expect(error.message.startsWith('E*TRADE: java.lang.IllegalStateException: upstream failed')).toBe(true);
    const json = etradeError(answer(503, { message: 'Service Unavailable' }), false, '/v1/accounts/list.json');
    expect(json.message).toBe('E*TRADE: Service Unavailable');
  });
});
