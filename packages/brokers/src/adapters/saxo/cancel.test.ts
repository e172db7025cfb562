// Contract tests of canceling an instrument's open orders at Saxo (WIRE.md §6-7): one DELETE for
// all of them, orders already being canceled passed over, and an answer that lists only some as
// canceled told as such (a close then places nothing).
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { API_PREFIX } from './fake.ts';
import { fill } from './fake-state.ts';
import { ACCOUNT, ORDERS, useSaxoFake } from './test-support.ts';

const t = useSaxoFake();

describe('canceling the open orders of an instrument', () => {
  it('passes over an order Saxo is canceling already', async () => {
    const session = await t.connect();
    const a = await t.place(session, { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 400 }, 'sig-p-1');
    const b = await t.place(session, { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 401 }, 'sig-p-2');
    const pending = t.fake.state.open.get(b.id);
    if (pending) pending.Status = 'WorkingLockedCancelPending';
    const answer = await t.place(session, { symbol: 'MSFT', action: 'cancel' }, 'sig-p-3');
    expect(t.calls().filter((call) => call.startsWith('DELETE'))).toEqual([`DELETE ${ORDERS}/${a.id}`]);
    expect(answer).toEqual({
      id: a.id,
      status: 'canceled',
      status_description: `Canceled 1 open order(s) of MSFT; already being canceled: ${b.id}`,
    });
  });

  it('a close whose cancels Saxo confirms only in part says which, and places nothing', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'EUR/DKK', action: 'buy', quantity: 30000 }, 'sig-q-1');
    const exit = (price: number, id: string) =>
      t.place(session, { symbol: 'EUR/DKK', action: 'sell', quantity: 30000, limit_price: price }, id);
    const first = await exit(8, 'sig-q-2');
    const second = await exit(9, 'sig-q-3');
    // Saxo's answer lists the orders it canceled: here only the first.
    t.fake.inject({
      method: 'DELETE',
      path: `${ORDERS}/${first.id},${second.id}`,
      status: 200,
      body: { Orders: [{ OrderId: first.id }] },
    });
    t.fake.requests.length = 0;
    const error = await brokerFailure(t.place(session, { symbol: 'EUR/DKK', action: 'close' }, 'sig-q-4'));
    expect(error.message).toBe(
      `Saxo: the cancel was not confirmed (order ${second.id}); of the open orders of EUR/DKK, only some were canceled: ${first.id}; not ${second.id}: check them at the broker`,
    );
    expect(t.calls()).not.toContain(`POST ${ORDERS}`);
  });

  it('one order gone between the listing and the DELETE: Saxo 404s the batch, the others are still canceled', async () => {
    const session = await t.connect();
    const a = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100 }, 'sig-g-1');
    const b = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 101 }, 'sig-g-2');
    // The listing the cancel reads still shows both; the first fills just after (gone, WIRE.md §7).
    const listing = await fetch(`${t.fake.baseUrl}/port/v1/orders/me`, {
      headers: { authorization: `Bearer ${session.secrets.accessToken}` },
    });
    t.fake.inject({ method: 'GET', path: `${API_PREFIX}/port/v1/orders/me`, status: 200, body: await listing.json() });
    t.fake.state.open.delete(a.id);
    const answer = await t.place(session, { symbol: 'AAPL', action: 'cancel' }, 'sig-g-3');
    expect(t.fake.state.open.has(b.id)).toBe(false);
    expect(answer).toEqual({
      id: b.id,
      status: 'canceled',
      status_description: `Canceled 1 open order(s) of AAPL; no longer open before the cancel (filled or canceled elsewhere): ${a.id}`,
    });
    expect(t.calls().filter((call) => call.startsWith('DELETE'))).toEqual([
      `DELETE ${ORDERS}/${a.id},${b.id}`,
      `DELETE ${ORDERS}/${b.id}`,
    ]);
  });

  /** What Saxo shows at `path` now, answered to the adapter's next read of it (a stale read). */
  const staleNext = async (session: { secrets: Record<string, string> }, path: string) => {
    const now = await fetch(`${t.fake.baseUrl}${path}?AccountKey=${ACCOUNT}&ClientKey=${ACCOUNT}`, {
      headers: { authorization: `Bearer ${session.secrets.accessToken}` },
    });
    t.fake.inject({ method: 'GET', path: `${API_PREFIX}${path}`, status: 200, body: await now.json() });
  };

  it('the one open order filled just before the DELETE: told no longer open, not "Order not found"', async () => {
    const session = await t.connect();
    const a = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100 }, 'sig-o-1');
    await staleNext(session, '/port/v1/orders/me');
    const order = t.fake.state.open.get(a.id);
    if (order) fill(t.fake.state, order);
    const answer = await t.place(session, { symbol: 'AAPL', action: 'cancel' }, 'sig-o-2');
    expect(answer).toEqual({
      id: '',
      status: 'canceled',
      status_description: `No open orders of AAPL; no longer open before the cancel (filled or canceled elsewhere): ${a.id}`,
    });
  });

  it('a close whose exit filled just before the DELETE reads the position again: nothing opened the other way', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'GBP/USD', action: 'buy', quantity: 30000 }, 'sig-f-1');
    const exit = (price: number, id: string) =>
      t.place(session, { symbol: 'GBP/USD', action: 'sell', quantity: 30000, limit_price: price }, id);
    const filled = await exit(1.5, 'sig-f-2');
    const other = await exit(1.6, 'sig-f-3');
    // The close reads the position and the open orders; the first exit fills just after.
    await staleNext(session, '/port/v1/netpositions');
    await staleNext(session, '/port/v1/orders/me');
    const order = t.fake.state.open.get(filled.id);
    if (order) fill(t.fake.state, order);
    t.fake.requests.length = 0;
    const error = await brokerFailure(t.place(session, { symbol: 'GBP/USD', action: 'close' }, 'sig-f-4'));
    expect(error.message).toBe(
      `Saxo: no open position in GBPUSD; the open orders of GBP/USD were canceled before the close (${other.id}): check the position and its exits at the broker`,
    );
    expect(t.calls()).not.toContain(`POST ${ORDERS}`);
    const held = [...(t.fake.state.accounts.get(ACCOUNT)?.positions.values() ?? [])];
    expect(held.filter((p) => p.instrument.Symbol === 'GBPUSD')).toEqual([]);
  });
});
