import { describe, expect, it } from 'vitest';
import { readTradeAnswer } from './status.ts';

describe('readTradeAnswer', () => {
  it('an instruction in Status 4 "Error" for StatusReason 7 "Unexpected error" leaves a submission unknown, no refusal', () => {
    for (const answer of [
      { Status: 4, StatusReason: 7, OrderId: 0, Orders: [] },
      { Status: 4, OrderId: 0, Orders: [] },
    ]) {
      expect(() => readTradeAnswer(answer, true)).toThrow(
        expect.objectContaining({ kind: 'BrokerUnavailable', outcomeUnknown: true }),
      );
    }
  });

  it('an instruction in Status 4 for a named reason stays a refusal', () => {
    expect(() => readTradeAnswer({ Status: 4, StatusReason: 55, OrderId: 0, Orders: [] }, true)).toThrow(
      expect.objectContaining({
        kind: 'InvalidOrder',
        brokerMessage: 'Market id is not recognised (status reason 55)',
      }),
    );
  });
});
