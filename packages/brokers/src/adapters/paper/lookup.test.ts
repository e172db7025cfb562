// The paper broker's lookup paths through findOrder: by our client order id (exact, or none: the
// simulator keeps every order), by its own id, and a cancel named by either id.
import { expect, it } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { MINUTE, paperFixture } from './paper.fixture.ts';

it('finds an order by our client order id first: exact, or proven absent', async () => {
  const paper = await paperFixture();
  const placed = await paper.place({ type: 'limit', limit_price: 90 }, 'sig-rest');
  const lookup = { accountId: paper.accountId, clientOrderId: 'sig-rest', brokerOrderId: 'PA-none' };
  expect(await findOrder(paper.broker, paper.ctx, paper.session, lookup)).toEqual({ match: 'exact', order: placed });
  paper.prices.set('AAPL', 89);
  paper.advance(MINUTE);
  expect(await findOrder(paper.broker, paper.ctx, paper.session, lookup)).toMatchObject({
    match: 'exact',
    order: { id: placed.id, status: 'filled', price: 90 },
  });
  const never = { accountId: paper.accountId, clientOrderId: 'sig-never' };
  expect(await findOrder(paper.broker, paper.ctx, paper.session, never)).toEqual({ match: 'none' });
});

it('reads an order by its own id, and cancels by either id', async () => {
  const paper = await paperFixture();
  const a = await paper.place({ type: 'limit', limit_price: 50 }, 'sig-a');
  const b = await paper.place({ type: 'limit', limit_price: 51 }, 'sig-b');
  const { broker, ctx, session, accountId } = paper;
  expect(await broker.findByBrokerId(ctx, session, accountId, a.id)).toEqual(a);
  expect(await broker.findByBrokerId(ctx, session, accountId, 'PA-none')).toBeNull();
  await broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig-a' });
  await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: b.id });
  expect(await paper.getOrder('sig-a')).toMatchObject({ id: a.id, status: 'canceled' });
  expect(await paper.getOrder('sig-b')).toMatchObject({ id: b.id, status: 'canceled' });
  await expect(broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig-none' })).rejects.toMatchObject({
    kind: 'OrderNotFound',
  });
});
