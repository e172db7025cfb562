import { describe, expect, it } from 'vitest';
import { fromAlpacaOrder } from './mapper.ts';

describe('fromAlpacaOrder', () => {
  it('a suspended order stands (it may still fill): working, not rejected', () => {
    const order = { id: 'a1', client_order_id: 'sig_1', status: 'suspended', qty: '2', filled_qty: '0' };
    expect(fromAlpacaOrder(order)).toMatchObject({ status: 'accepted', status_description: 'Alpaca order suspended' });
  });

  it('a rejected order is rejected', () => {
    expect(fromAlpacaOrder({ id: 'a2', status: 'rejected', qty: '2' }).status).toBe('rejected');
  });
});
