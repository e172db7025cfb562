// Every example of the documentation playground, as a paper test hook takes it (normalized and
// validated against the paper descriptor) and as a live paper hook places it.
import { exampleBody, normalizeOrder, ORDER_EXAMPLES } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { createPaperBroker } from './adapter.ts';
import { START } from './paper.fixture.ts';
import { createMemoryPaperStore } from './store.ts';

/** What TradingView and TrendSpider put in place of their variables before sending. */
const SENT: Record<string, string> = {
  '{{ticker}}': 'AAPL',
  '{{strategy.order.action}}': 'sell',
  '{{strategy.order.contracts}}': '2',
  '{{close}}': '191.5',
  '%alert_symbol%': 'AAPL',
  '%last_price%': '150.25',
};

describe('the playground examples on the paper broker', () => {
  const broker = createPaperBroker({ store: createMemoryPaperStore(), now: () => START });
  const ctx = { baseUrl: '' };

  it.each(ORDER_EXAMPLES.map((example) => [example.id, example] as const))('%s', async (_id, example) => {
    const session = await broker.connect(ctx, { credentials: {} });
    const accountId = session.accounts[0]?.id ?? '';
    // The TradingView example sells: hold something to sell first.
    await broker.placeOrder(ctx, session, {
      accountId,
      clientOrderId: 'holding',
      order: {
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 5,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    });
    let body = JSON.stringify(exampleBody(example, broker.descriptor));
    for (const [variable, value] of Object.entries(SENT)) body = body.replaceAll(variable, value);
    const normalized = normalizeOrder(body, { provider: broker.descriptor, now: () => START });
    if (!normalized.ok) throw new Error(normalized.error.message);
    const placed = await broker.placeOrder(ctx, session, {
      accountId,
      clientOrderId: example.id,
      order: normalized.order,
    });
    expect(['accepted', 'filled']).toContain(placed.status);
  });
});
