import { BrokerError } from '@router/brokers';
import { describe, expect, it } from 'vitest';
import { fromError } from './outcome.ts';

describe('fromError', () => {
  it('an unknown outcome whose answer named the broker’s order id keeps that id on the signal', () => {
    const error = new BrokerError(
      'BrokerUnavailable',
      'Questrade',
      'Order rejected (order 177106005, its state not given)',
      {
        outcomeUnknown: true,
        brokerOrderId: '177106005',
      },
    );
    expect(fromError('sig-1', 'Questrade', error)).toMatchObject({
      event: 'lose',
      status: 'unknown',
      brokerOrderId: '177106005',
      releaseCredit: false,
    });
  });

  it('an unknown outcome without an order id, or an unexpected throw, keeps none', () => {
    const timeout = new BrokerError('BrokerUnavailable', 'Acme', 'no answer', { outcomeUnknown: true });
    expect(fromError('sig-1', 'Acme', timeout)).toMatchObject({ event: 'lose', brokerOrderId: null });
    expect(fromError('sig-1', 'Acme', new Error('boom'))).toMatchObject({ event: 'lose', brokerOrderId: null });
  });
});
