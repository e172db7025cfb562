import { describe, expect, it } from 'vitest';
import { orderText, type Trade } from './trade-line.tsx';

const trade: Trade = {
  hookKey: 'hk1',
  hookName: 'Main',
  via: null,
  providerName: 'kraken',
  symbol: 'BTC/USD',
  side: 'buy',
  quantity: 0.0015,
  orderType: 'market',
  price: 64000,
  result: 'filled',
  status: 'filled',
  elapsedMs: 41,
  phases: { parse: 0.4, store: 1.2, broker: 38 },
  brokerOrderId: 'O-1',
  order: null,
  isTest: false,
  repeat: false,
  checking: false,
};

describe('the order of a trade line', () => {
  it('shows the price in en-US (SPEC §9): grouped, its own decimals kept, float noise dropped', () => {
    expect(orderText({ ...trade, price: 64000.25 })).toBe('buy 0.0015 BTC/USD market @ 64,000.25');
    expect(orderText({ ...trade, symbol: 'SHIB/USD', price: 0.00001234 })).toBe(
      'buy 0.0015 SHIB/USD market @ 0.00001234',
    );
    expect(orderText({ ...trade, symbol: 'AAPL', price: 0.1 + 0.2 })).toBe('buy 0.0015 AAPL market @ 0.3');
  });

  it('shows a fractional quantity as it was ordered (crypto, fractional shares), not rounded to a whole number', () => {
    expect(orderText(trade)).toBe('buy 0.0015 BTC/USD market @ 64,000');
    expect(orderText({ ...trade, symbol: 'AAPL', quantity: 2.5 })).toBe('buy 2.5 AAPL market @ 64,000');
  });

  it('groups a large whole quantity', () => {
    expect(orderText({ ...trade, symbol: 'F', quantity: 1500, price: null })).toBe('buy 1,500 F market');
  });
});
