// lastPrice: the price a market order fills at now (a webhook's maxNotional values market orders with it).
import { describe, expect, it } from 'vitest';
import { paperFixture } from './paper.fixture.ts';

describe('paper broker: lastPrice', () => {
  it('quotes the price a market order then fills at', async () => {
    const paper = await paperFixture();
    paper.prices.set('AAPL', 187.25);
    const price = await paper.broker.lastPrice(paper.ctx, paper.session, paper.accountId, 'aapl', 'stock');
    expect(price).toBe(187.25);
    expect(await paper.place({ quantity: 1 }, 'market-1')).toMatchObject({ status: 'filled', price });
  });

  it('answers null for a symbol it does not list, and refuses another connection’s account', async () => {
    const paper = await paperFixture();
    expect(await paper.broker.lastPrice(paper.ctx, paper.session, paper.accountId, 'NOPE123', 'stock')).toBeNull();
    const other = await paper.broker.connect(paper.ctx, { credentials: {} });
    await expect(
      paper.broker.lastPrice(paper.ctx, paper.session, other.accounts[0]?.id ?? '', 'AAPL', 'stock'),
    ).rejects.toMatchObject({ kind: 'InvalidOrder' });
  });
});
