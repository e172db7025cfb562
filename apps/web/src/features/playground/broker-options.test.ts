import { describe, expect, it } from 'vitest';
import { ALPACA, KRAKEN, PAPER, PROVIDERS } from '../../routes/me-documentation/test-fixtures.ts';
import { brokerOptions, defaultBroker } from './broker-options.ts';
import { accountChoices, accountLabel, type PlaygroundConnector } from './connectors.ts';

const map = new Map(PROVIDERS.map((provider) => [provider.name, provider]));
const connector = (key: string, providerName: string, ids: string[], isActive = true): PlaygroundConnector => ({
  key,
  providerName,
  isActive,
  isDemo: false,
  accounts: ids.map((id) => ({ id })),
});

describe('broker options (SPEC §2)', () => {
  it('puts connected brokers first, in connector order, once each', () => {
    const options = brokerOptions(map, [
      connector('a', 'paper', ['1']),
      connector('b', 'alpaca', ['2']),
      connector('c', 'paper', ['3']),
    ]);
    expect(options.connected.map((p) => p.name)).toEqual(['paper', 'alpaca']);
    expect(options.others.map((p) => p.name)).toEqual(['kraken', 'tradier', 'schwab']);
  });

  it('defaults to the route, else the first connected, else the first other', () => {
    const options = brokerOptions(map, [connector('a', 'paper', ['1'])]);
    expect(defaultBroker(options, 'kraken')).toBe(KRAKEN);
    expect(defaultBroker(options, undefined)).toBe(PAPER);
    expect(defaultBroker(options, 'unknown')).toBe(PAPER);
    expect(defaultBroker(brokerOptions(map, []), undefined)).toBe(ALPACA);
  });

  it('offers every account of the broker connectors', () => {
    const choices = accountChoices(
      [connector('a', 'paper', ['1', '2']), connector('b', 'paper', ['3'], false)],
      'paper',
    );
    expect(choices.map((c) => [c.value, c.isActive])).toEqual([
      ['a 1', true],
      ['a 2', true],
      ['b 3', false],
    ]);
    expect(accountLabel({ id: 'X', name: ' ', dataCurrency: 'EUR' })).toBe('X · EUR');
  });
});
