import type { Provider } from '@router/orders';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BrandLogo, monogram, monogramColour } from './brand-logo.tsx';
import { capabilitiesLine, capabilitiesOf } from './capabilities.ts';

describe('BrandLogo', () => {
  it('draws the Simple Icons logo where the set has the brand', () => {
    const { container } = render(<BrandLogo name="tradingview" title="TradingView" />);
    const path = container.querySelector('svg path');
    expect(path?.getAttribute('fill')).toBe('#131622');
    expect(path?.getAttribute('d')?.length).toBeGreaterThan(20);
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('draws initials on a colour chosen by the name for the rest', () => {
    const { container } = render(<BrandLogo name="paper" title="Paper Trading" />);
    const mark = container.querySelector('.brand-monogram');
    expect(mark?.textContent).toBe('PT');
    expect(mark?.className).toContain(`brand-monogram-${monogramColour('paper')}`);
  });

  it.each([
    ['Paper Trading', 'PT'],
    ['Trading 212', 'T2'],
    ['WOO X', 'WX'],
    ['Kraken', 'Kr'],
    ['E*TRADE', 'ET'],
    ['BitMEX', 'Bi'],
  ])('monogram of %s is %s', (title, initials) => {
    expect(monogram(title)).toBe(initials);
  });

  it('keeps a name on one colour, and spreads names over the colours', () => {
    expect(monogramColour('alpaca')).toBe(monogramColour('alpaca'));
    const names = ['alpaca', 'bitmex', 'kraken', 'paper', 'schwab', 'tradier', 'trading212', 'woo'];
    expect(new Set(names.map(monogramColour)).size).toBeGreaterThan(3);
  });
});

describe('capabilities', () => {
  const provider: Provider = {
    name: 'tradier',
    title: 'Tradier',
    status: 'active',
    authentication: { type: 'credentials', credentials: [] },
    reference: {
      class: { values: ['option', 'stock'] },
      type: { values: ['market', 'limit', 'stop_limit'] },
      take_profit_price: {},
      legs: {},
    },
  };

  it('reads classes, order types, brackets and multi-leg from the reference', () => {
    expect(capabilitiesOf(provider)).toEqual({
      classes: ['Stock', 'Option'],
      types: ['Market', 'Limit', 'Stop limit'],
      brackets: false,
      multiLeg: true,
    });
    const withBrackets = { ...provider, reference: { ...provider.reference, stop_loss_price: {} } };
    expect(capabilitiesLine(withBrackets)).toBe('Stock, Option · Market, Limit, Stop limit · brackets · multi-leg');
  });
});
