import { describe, expect, it } from 'vitest';
import { createPaperBroker } from './adapter.ts';
import { createInstruments } from './instruments.ts';
import { MINUTE, paperFixture, START } from './paper.fixture.ts';
import { createSyntheticQuote } from './quotes.ts';
import { createMemoryPaperStore } from './store.ts';
import { builtInSymbols } from './symbol-list.ts';

const syntheticQuote = createSyntheticQuote(createInstruments(builtInSymbols()).levelOf);

describe('paper broker: the Broker contract', () => {
  it('connects without credentials to a fresh demo account', async () => {
    const broker = createPaperBroker({ store: createMemoryPaperStore(), startingCash: 25_000 });
    const first = await broker.connect({ baseUrl: '' }, { credentials: {} });
    const second = await broker.connect({ baseUrl: '' }, { credentials: {} });
    const [account] = first.accounts;
    expect(account).toMatchObject({ name: 'Paper account', dataCurrency: 'USD', demo: true });
    expect(account?.id).toMatch(/^PA-[2-9A-Z]{8}$/);
    expect(second.accounts[0]?.id).not.toBe(account?.id);
    expect(await broker.getHoldings({ baseUrl: '' }, first, account?.id ?? '')).toMatchObject({
      cash: 25_000,
      positions: [],
    });
  });

  it("refuses an account that is not the connection's", async () => {
    const paper = await paperFixture();
    const other = await paper.broker.connect(paper.ctx, { credentials: {} });
    await expect(paper.broker.getHoldings(paper.ctx, paper.session, other.accounts[0]?.id ?? '')).rejects.toMatchObject(
      {
        kind: 'InvalidOrder',
      },
    );
  });

  it('places an order once per client order id and answers a repeat with the first order', async () => {
    const paper = await paperFixture();
    const first = await paper.place({ type: 'limit', limit_price: 90, quantity: 2 }, 'signal-42');
    const again = await paper.place({ quantity: 50 }, 'signal-42');
    expect(again).toEqual(first);
    paper.prices.set('AAPL', 89);
    paper.advance(MINUTE);
    // The repeat reports the order's current state.
    expect(await paper.place({ quantity: 50 }, 'signal-42')).toMatchObject({ id: first.id, status: 'filled' });
    expect((await paper.holdings()).positions).toMatchObject([{ quantity: 2 }]);
  });

  it('finds orders by client order id for reconciliation', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 1 }, 'known');
    expect(await paper.getOrder('known')).toMatchObject({ status: 'filled', price: 100 });
    expect(await paper.getOrder('unknown')).toBeNull();
  });

  it('never overspends when many orders reach one account at once', async () => {
    const paper = await paperFixture({ startingCash: 100_000 });
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, () => paper.place({ quantity: 10_000, quantity_type: 'cash' })),
    );
    const filled = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(filled).toHaveLength(10);
    expect(refused.every((result) => (result.reason as { kind?: string }).kind === 'InsufficientFunds')).toBe(true);
    expect(await paper.holdings()).toMatchObject({ cash: 0, positions: [{ quantity: 1000 }] });
  });

  it('previews without placing anything', async () => {
    const paper = await paperFixture();
    const input = { accountId: paper.accountId, clientOrderId: 'preview-1', order: paper.order({ quantity: 3 }) };
    expect(await paper.broker.previewOrder?.(paper.ctx, paper.session, input)).toEqual({
      id: 'preview-1',
      status: 'draft',
      status_description: 'Preview, nothing placed. Filled: buy 3 AAPL at 100',
      price: 100,
    });
    await expect(
      paper.broker.previewOrder?.(paper.ctx, paper.session, { ...input, order: paper.order({ quantity: 5000 }) }),
    ).rejects.toMatchObject({ kind: 'InsufficientFunds' });
    expect(await paper.holdings()).toMatchObject({ cash: 100_000, positions: [] });
    expect(await paper.getOrder('preview-1')).toBeNull();
  });

  it('cancels a resting order by id, and says why it cannot cancel others', async () => {
    const paper = await paperFixture();
    const { broker, ctx, session, accountId } = paper;
    const resting = await paper.place({ type: 'limit', limit_price: 90 });
    const filled = await paper.place({ quantity: 1 });
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: resting.id });
    expect(await paper.getOrder('signal-1')).toMatchObject({
      status: 'canceled',
      status_description: 'Canceled on request',
    });
    await expect(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: filled.id })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
    await expect(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: 'PA-TEST1-99' })).rejects.toMatchObject({
      kind: 'OrderNotFound',
    });
  });

  it('keeps its state in the store: another broker instance on the same store sees it', async () => {
    const store = createMemoryPaperStore();
    const paper = await paperFixture({ store });
    await paper.place({ quantity: 4 });
    const restarted = createPaperBroker({ store, quote: () => 100, now: () => START });
    expect(await restarted.getHoldings(paper.ctx, paper.session, paper.accountId)).toMatchObject({
      positions: [{ quantity: 4 }],
    });
  });

  it('fills resting orders the same whether the account is touched often or once', async () => {
    // Synthetic quotes: a resting order near the market fills somewhere along the walk.
    const often = createPaperBroker({ store: createMemoryPaperStore(), now: () => clock });
    const once = createPaperBroker({ store: createMemoryPaperStore(), now: () => clock });
    let clock = START;
    const ctx = { baseUrl: '' };
    const sessions = [await often.connect(ctx, { credentials: {} }), await once.connect(ctx, { credentials: {} })];
    const order = {
      symbol: 'AAPL',
      class: 'stock',
      action: 'buy',
      quantity: 10,
      quantity_type: 'fixed',
      type: 'market',
      duration: 'gtc',
    } as const;
    const [oftenSession, onceSession] = sessions;
    if (!oftenSession || !onceSession) throw new Error('no session');
    const place = (broker: typeof often, session: typeof oftenSession, fields: object, id: string) =>
      broker.placeOrder(ctx, session, {
        accountId: session.accounts[0]?.id ?? '',
        clientOrderId: id,
        order: { ...order, ...fields },
      });
    const entry = await place(often, oftenSession, {}, 'entry');
    await place(once, onceSession, {}, 'entry');
    // A take profit the walk reaches within the day.
    const peak = Math.max(
      ...Array.from({ length: 24 * 60 }, (_, minute) => syntheticQuote('AAPL', 'stock', START + minute * MINUTE)),
    );
    const entryPrice = entry.price ?? 0;
    expect(peak).toBeGreaterThan(entryPrice);
    const exits = {
      action: 'sell',
      type: 'limit',
      limit_price: Number((entryPrice + 0.7 * (peak - entryPrice)).toFixed(2)),
    };
    await place(often, oftenSession, exits, 'exit');
    await place(once, onceSession, exits, 'exit');
    for (let step = 0; step < 24 * 6; step++) {
      clock += 10 * MINUTE;
      await often.findByClientId(ctx, oftenSession, oftenSession.accounts[0]?.id ?? '', 'exit');
    }
    const a = await often.findByClientId(ctx, oftenSession, oftenSession.accounts[0]?.id ?? '', 'exit');
    const b = await once.findByClientId(ctx, onceSession, onceSession.accounts[0]?.id ?? '', 'exit');
    expect(a).toMatchObject({ status: 'filled' });
    expect({ ...b, id: a?.id }).toEqual(a);
  });
});
