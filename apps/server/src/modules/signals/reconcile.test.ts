// Reconciliation: a broker that knows orders only by what the row holds (its order id, or the
// order and when it was sent) finds them; two reconcilers at once look each signal up once and
// settle it once; a claim that outlived its lease cannot overwrite the claim that took over.
import type { Broker, OrderHint } from '@router/brokers';
import type { OrderResponse } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { balanceOf, flakyBroker, setupTrader, signalRows } from '../../../test/signal-fixtures.ts';
import { reconcileOnce } from './reconcile.ts';

/** A broker without client order ids (like Schwab): finds an order by its id, or by symbol and time. */
interface Book {
  broker: Broker;
  byId: Map<string, OrderResponse>;
  bySymbol: Map<string, { at: number; order: OrderResponse }>;
  /** Lookups per client order id. */
  lookups: Map<string, number>;
  /** Held lookups wait for this before answering. */
  gate: Promise<void>;
}

function hintedBroker(): Book {
  const base = flakyBroker().broker;
  const book: Book = {
    broker: base,
    byId: new Map(),
    bySymbol: new Map(),
    lookups: new Map(),
    gate: Promise.resolve(),
  };
  book.broker = {
    ...base,
    descriptor: { ...base.descriptor, name: 'hinted', title: 'Hinted Broker' },
    async getOrder(_ctx, _session, _accountId, clientOrderId, hint?: OrderHint) {
      book.lookups.set(clientOrderId, (book.lookups.get(clientOrderId) ?? 0) + 1);
      await book.gate;
      if (hint?.brokerOrderId) return book.byId.get(hint.brokerOrderId) ?? null;
      const near = hint?.order && book.bySymbol.get(hint.order.symbol);
      return near && hint?.sentAt !== undefined && Math.abs(near.at - hint.sentAt) < 60_000 ? near.order : null;
    },
  } as Broker;
  return book;
}

let t: TestApp;
let book: Book;
beforeAll(async () => {
  book = hintedBroker();
  t = await startTestApp({ brokers: [book.broker] });
});
afterAll(() => t.close());

const options = (owner: string) => ({ owner, inFlight: { ids: () => [] }, staleAfterMs: 0, intervalMs: 1_000 });

async function placing(trader: Awaited<ReturnType<typeof setupTrader>>, id: string, extra: Record<string, unknown>) {
  const pool = t.services.db.$client;
  const { rows } = await pool.query<{ id: string }>('select id from connectors where key = $1', [trader.connector.key]);
  await pool.query(
    `with c as (update accounts set balance = balance - 1 where user_id = $2)
    insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held,
      "order", broker_order_id, created_at)
    values ($1, $2, $3, $4, 'F-1', 'hinted', 'placing', true, $5, $6, now() - interval '1 minute')`,
    [
      id,
      trader.userId,
      trader.hook.id,
      Number(rows[0]?.id),
      JSON.stringify(extra.order ?? null),
      extra.brokerOrderId ?? null,
    ],
  );
}

describe('reconciliation', () => {
  it('finds an order by the broker order id or by the order and its time, and keeps its credit', async () => {
    const trader = await setupTrader(t, 'hinted@example.com', { provider: 'hinted' });
    book.byId.set('H-1', { id: 'H-1', status: 'filled', price: 11 });
    book.bySymbol.set('MSFT', { at: Date.now() - 60_000, order: { id: 'H-2', status: 'accepted' } });
    const order = { symbol: 'MSFT', action: 'buy', quantity: 1, type: 'market' };
    await placing(trader, 'hintedById0000000001', { brokerOrderId: 'H-1' });
    await placing(trader, 'hintedByOrder0000001', { order });
    await placing(trader, 'hintedNowhere0000001', { order: { ...order, symbol: 'AAPL' } });
    expect(await balanceOf(t, trader.userId)).toBe(2);
    await reconcileOnce(t.services, options('one'));
    const rows = await signalRows(t, trader.userId);
    const row = (id: string) => rows.find((s) => s.id === id);
    expect(row('hintedById0000000001')).toMatchObject({ status: 'filled', broker_order_id: 'H-1', credit_held: true });
    expect(row('hintedByOrder0000001')).toMatchObject({
      status: 'accepted',
      broker_order_id: 'H-2',
      credit_held: true,
    });
    expect(row('hintedNowhere0000001')).toMatchObject({ status: 'failed', credit_held: false });
    expect(await balanceOf(t, trader.userId)).toBe(3);
  });

  it('two reconcilers at once look each signal up once and settle it once', async () => {
    const trader = await setupTrader(t, 'two@example.com', { provider: 'hinted', credits: 30 });
    const ids = Array.from({ length: 25 }, (_, i) => `twoReconcilers${String(i).padStart(6, '0')}`);
    for (const [i, id] of ids.entries()) {
      if (i % 2 === 0) book.byId.set(`T-${i}`, { id: `T-${i}`, status: 'filled' });
      await placing(trader, id, { brokerOrderId: `T-${i}` });
    }
    let open = () => {};
    book.gate = new Promise((resolve) => {
      open = resolve;
    });
    const passes = Promise.all([reconcileOnce(t.services, options('a')), reconcileOnce(t.services, options('b'))]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    open();
    await passes;
    book.gate = Promise.resolve();
    for (const id of ids) expect(book.lookups.get(id)).toBe(1);
    const rows = await signalRows(t, trader.userId);
    expect(rows.filter((s) => s.status === 'filled' && s.credit_held)).toHaveLength(13);
    expect(rows.filter((s) => s.status === 'failed' && !s.credit_held)).toHaveLength(12);
    // 30 credits, 25 taken, 12 given back.
    expect(await balanceOf(t, trader.userId)).toBe(30 - 25 + 12);
    const owners = await t.services.db.$client.query<{ lease_owner: string }>(
      'select distinct lease_owner from signals where user_id = $1',
      [trader.userId],
    );
    expect(owners.rows.map((r) => r.lease_owner).sort()).toEqual(['a', 'b']);
  });

  it('drops the outcome of a claim whose lease another claim took over', async () => {
    const trader = await setupTrader(t, 'lapsed@example.com', { provider: 'hinted' });
    await placing(trader, 'lapsedLease000000001', { brokerOrderId: 'L-1' });
    const gate = () => {
      let open = () => {};
      book.gate = new Promise((resolve) => {
        open = resolve;
      });
      return open;
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
    // The slow claim waits at the broker until its lease ran out and another claim took over.
    const openSlow = gate();
    const slow = reconcileOnce(t.services, options('slow'));
    await settle();
    await t.services.db.$client.query(`update signals set lease_until = now() - interval '1 second' where id = $1`, [
      'lapsedLease000000001',
    ]);
    const openFast = gate();
    const fast = reconcileOnce(t.services, options('fast'));
    await settle();
    // The slow one hears "no such order" first: its claim is no longer the row's, nothing is written.
    openSlow();
    await slow;
    expect((await signalRows(t, trader.userId))[0]).toMatchObject({ status: 'placing', credit_held: true });
    book.byId.set('L-1', { id: 'L-1', status: 'filled' });
    openFast();
    await fast;
    book.gate = Promise.resolve();
    expect(book.lookups.get('lapsedLease000000001')).toBe(2);
    expect((await signalRows(t, trader.userId))[0]).toMatchObject({ status: 'filled', credit_held: true });
    expect(await balanceOf(t, trader.userId)).toBe(4);
  });

  it('keeps a signal nobody can look up unknown, its credit held, tells the user, and stops asking', async () => {
    const trader = await setupTrader(t, 'orphan@example.com', { provider: 'hinted' });
    await placing(trader, 'orphanedSignal000001', { brokerOrderId: 'O-1' });
    // Its broker connection is gone (deleted since): nobody can tell whether the order exists.
    await t.services.db.$client.query('update signals set connector_id = -1 where id = $1', ['orphanedSignal000001']);
    expect(await reconcileOnce(t.services, options('one'))).toBe(1);
    expect(await reconcileOnce(t.services, options('two'))).toBe(0);
    const { rows } = await t.services.db.$client.query(
      'select status, credit_held, response, attempts, completed_at is not null as done from signals where id = $1',
      ['orphanedSignal000001'],
    );
    expect(rows[0]).toEqual({
      status: 'unknown',
      credit_held: true,
      response: {
        id: 'orphanedSignal000001',
        status: 'accepted',
        status_description:
          "Hinted Broker: the order's outcome could not be confirmed; check your Hinted Broker account",
      },
      attempts: 1,
      done: true,
    });
    expect(await balanceOf(t, trader.userId)).toBe(4);
  });
});
