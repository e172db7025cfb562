// The Notes' symbol examples, as a user copies them from the screen, read as the order language
// reads them: every spelling of the option is the one contract the note says it is.
import { normalizeOrder, type Provider, parseSymbol } from '@router/orders';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Notes } from './notes.tsx';

function definitionOf(term: string, now?: number, provider?: Provider): Element | null {
  const router = createMemoryRouter([{ path: '/', element: <Notes now={now} provider={provider} /> }]);
  render(<RouterProvider router={router} />);
  return screen.getByText(term).nextElementSibling;
}

function codesOf(term: string, now?: number): string[] {
  const definition = definitionOf(term, now);
  return [...(definition?.querySelectorAll('code') ?? [])].map((code) => code.textContent ?? '');
}

describe('documentation notes', () => {
  it('spells the option symbols so that each copied one is the same contract', () => {
    const now = Date.UTC(2025, 5, 15);
    const codes = codesOf('Option symbols', now);
    expect(codes).toHaveLength(4);
    const read = codes.map((code) => {
      try {
        return parseSymbol(code, { now: () => now }).canonical;
      } catch (error) {
        return `${JSON.stringify(code)}: ${(error as Error).message}`;
      }
    });
    expect(read).toEqual(codes.map(() => 'AAPL  250919C00200000'));
  });

  it('dates the futures and option examples as of the clock: contracts still ahead, the 1-digit year the one said', () => {
    const now = Date.UTC(2031, 0, 10);
    const futures = definitionOf('Futures symbols', now);
    const codes = (definition: Element | null) =>
      [...(definition?.querySelectorAll('code') ?? [])].map((code) => code.textContent ?? '');
    const read = codes(futures)
      .slice(0, 3)
      .map((code) => parseSymbol(code, { now: () => now }).canonical);
    expect(read).toEqual(['ESH2031', 'ESH2031', 'ESH2031']);
    expect(futures?.textContent).toContain(
      'the same March 2031 contract; a contract whose month is over trades nowhere',
    );
    // The index CFD names the note gives read as tickers, as it says.
    for (const name of ['HK50', 'VN30']) {
      expect(codes(futures)).toContain(name);
      expect(parseSymbol(name, { now: () => now })).toMatchObject({ canonical: name, class: 'stock' });
    }
    const options = codes(screen.getByText('Option symbols').nextElementSibling).map(
      (code) => parseSymbol(code, { now: () => now }).canonical,
    );
    expect(options).toEqual(options.map(() => 'AAPL  310418C00200000'));
  });

  // Zerodha takes day and ioc only, Kraken gtc and ioc: an order naming no duration gets what the
  // broker takes, and the note says what that is.
  it.each([
    [['day', 'ioc'], 'day', 'day'],
    [['gtc', 'ioc'], 'gtc', 'gtc'],
    [['day', 'gtc'], 'gtc', 'day'],
  ])('says the default durations the hook gives at a broker taking %j', (durations, limit, market) => {
    const provider = {
      name: 'broker',
      title: 'Broker',
      status: 'active',
      authentication: { type: 'open' },
      reference: {
        symbol: { required: true },
        action: { required: true },
        quantity: { required: true },
        type: { values: ['market', 'limit'] },
        limit_price: {},
        duration: { values: durations },
      },
    } as unknown as Provider;
    const order = { symbol: 'AAPL', action: 'buy', quantity: 1 };
    const read = (body: object) => {
      const normalized = normalizeOrder(body, { provider });
      return normalized.ok ? normalized.order.duration : normalized.error.message;
    };
    expect([read({ ...order, limit_price: 100 }), read(order)]).toEqual([limit, market]);
    const term = `Limit and stop orders are ${limit.toUpperCase()}`;
    const text = definitionOf(term, undefined, provider)?.textContent ?? '';
    expect(text).toContain(`orders are ${limit} (`);
    expect(text).toContain(`market orders ${market === 'day' ? 'last the day' : `are ${market} (`}`);
  });
});
