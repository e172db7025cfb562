// SPEC §9 gives each provider's logo scale factor; the providers query hands them to the screens.
import { expect, it } from 'vitest';
import { brokerModules } from '../discover.ts';
import { toProvider } from './registry.ts';

const SPEC_SCALES: Readonly<Record<string, number>> = {
  bitmex: 0.7,
  coinbase: 0.8,
  ctrader: 1.5,
  etrade: 0.8,
  forex: 0.75,
  ibkr: 1.1,
  lightspeed: 1.3,
  kraken: 0.7,
  metatrader: 0.8,
  questrade: 1.6,
  rithmic: 1.1,
  robinhood: 1.2,
  saxo: 1.5,
  schwab: 1.8,
  tradethepool: 1.2,
  tradier: 1.2,
  tastytrade: 0.9,
  trading212: 0.65,
  tradovate: 1.3,
  webull: 0.8,
  woo: 0.8,
  zerodha: 0.7,
};

it('gives every provider SPEC §9 names the scale factor SPEC gives it', () => {
  const scales = Object.fromEntries(
    brokerModules
      .map((module) => toProvider(module.descriptor))
      .filter((provider) => provider.name in SPEC_SCALES)
      .map((provider) => [provider.name, provider.scale]),
  );
  expect(scales).toEqual(SPEC_SCALES);
});
