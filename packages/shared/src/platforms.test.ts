import { describe, expect, it } from 'vitest';
import { addressLabel, PLATFORMS, platformOfAddress } from './platforms.ts';

describe('platforms', () => {
  it('labels the five fixed source addresses', () => {
    for (const ip of ['52.89.214.238', '34.212.75.30', '54.218.53.128', '52.32.178.7']) {
      expect(addressLabel(ip)).toBe('TradingView');
    }
    expect(addressLabel('3.12.143.24')).toBe('TrendSpider');
    expect(platformOfAddress('::ffff:3.12.143.24')?.name).toBe('trendspider');
  });

  it('gives null for other or missing addresses', () => {
    expect(addressLabel('127.0.0.1')).toBeNull();
    expect(addressLabel('52.89.214.23')).toBeNull();
    expect(addressLabel(null)).toBeNull();
    expect(addressLabel('')).toBeNull();
  });

  it('carries the scale factors of SPEC §9', () => {
    expect(PLATFORMS.tradingview.scale).toBe(0.8);
    expect(PLATFORMS.trendspider.scale).toBe(1);
    expect(PLATFORMS.zapier.scale).toBe(0.7);
  });
});
