// Rithmic names contracts with a one-digit year: a contract further off is refused, not sent as
// the one of the current decade.
import { normalizeOrderOrThrow } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { contractOf } from './contracts.ts';

const NOW = Date.UTC(2026, 10, 27);

describe('contractOf', () => {
  it('names a contract within five years by its one-digit year', () => {
    expect(contractOf({ symbol: 'ESZ2026' }, NOW)).toMatchObject({ root: 'ES', symbol: 'ESZ6' });
  });

  it('refuses a contract whose one-digit year would name another decade’s (ESZ2036 is not ESZ6)', () => {
    expect(() => contractOf({ symbol: 'ESZ2036' }, NOW)).toThrow(
      'ESZ2036 is too far off to name with a one-digit year',
    );
  });

  // Every CME Group root whose tick is known has its exchange too: KE was "not known; prefix it".
  it.each([
    ['KEN2027', 'CBOT'],
    ['ZOH2027', 'CBOT'],
    ['6NH2027', 'CME'],
    ['6MH2027', 'CME'],
    ['M6AH2027', 'CME'],
    ['M6BH2027', 'CME'],
  ])('names the exchange of %s: %s', (symbol, exchange) => {
    expect(contractOf({ symbol }, NOW)).toMatchObject({ exchange });
  });

  // TradingView's {{exchange}} on delayed data (CME_MINI_DL, NYMEX_DL) named an exchange Rithmic has no route to.
  it.each([
    ['CME_MINI_DL:ESZ2026', 'CME'],
    ['NYMEX_DL:CL1!', 'NYMEX'],
  ])('routes %s, a delayed chart, to %s', (symbol, exchange) => {
    const order = normalizeOrderOrThrow({ symbol, action: 'buy', quantity: 1 }, { now: () => NOW });
    expect(contractOf(order, NOW)).toMatchObject({ exchange });
  });

  // Eurex roots (FESX, FGBL) are known, but not the exchange code Rithmic gives Eurex (WIRE.md names
  // CME only): the refusal must not send the trader to CME, which lists none of them.
  it.each(['FESXH2027', 'FGBL1!', 'FDAXH2027'])('asks for the exchange of %s without naming CME', (symbol) => {
    const root = symbol.replace(/(H2027|1!)$/, '');
    expect(() => contractOf({ symbol }, NOW)).toThrow(
      `the exchange of ${root} is not known; prefix the exchange as Rithmic names it, as in <exchange>:${root}H2027`,
    );
  });
});
