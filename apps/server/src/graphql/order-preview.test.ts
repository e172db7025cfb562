import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { gql } from '../../test/connector-fixtures.ts';
import { balanceOf, paperOrders, setupTrader } from '../../test/signal-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const PREVIEW = `mutation($connectorKey: String!, $accountId: String, $data: String!) {
  orderPreview(connectorKey: $connectorKey, accountId: $accountId, data: $data)
}`;

describe('orderPreview', () => {
  it('previews on the paper broker without placing or charging', async () => {
    const trader = await setupTrader(t, 'preview@example.com');
    const data = JSON.stringify({ symbol: 'aapl', action: 'buy', quantity: '1 + 1' });
    const res = await gql<{ orderPreview: Record<string, unknown> }>(t, trader.headers, PREVIEW, {
      connectorKey: trader.connector.key,
      accountId: trader.accountId,
      data,
    });
    expect(res.error).toBeUndefined();
    expect(res.data?.orderPreview).toMatchObject({
      status: 'draft',
      order: { symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 2, type: 'market' },
    });
    expect(typeof res.data?.orderPreview.price).toBe('number');
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(5);
  });

  it('refuses invalid orders as the hook does', async () => {
    const trader = await setupTrader(t, 'preview-invalid@example.com');
    const res = await gql(t, trader.headers, PREVIEW, {
      connectorKey: trader.connector.key,
      data: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1, stop_los_price: 1 }),
    });
    expect(res.error?.code).toBe('BAD_USER_INPUT');
    expect(res.error?.message).toMatch(/stop_los_price/);
    const cancel = await gql(t, trader.headers, PREVIEW, {
      connectorKey: trader.connector.key,
      data: JSON.stringify({ symbol: 'AAPL', action: 'cancel', quantity_type: 'percent_of_position' }),
    });
    expect(cancel.error?.message).toBe(
      'quantity_type: not used with action cancel (it cancels every open order on the symbol)',
    );
  });

  it("refuses unknown, other users' and inactive connectors with the playground's messages", async () => {
    const trader = await setupTrader(t, 'preview-owner@example.com');
    const stranger = await insertTestUser(t.services, 'preview-stranger@example.com');
    const data = JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 });
    const missing = await gql(t, trader.headers, PREVIEW, { connectorKey: 'nope', data });
    expect(missing.error?.message).toBe('Please, connect the broker to submit test orders');
    const foreign = await gql(t, stranger.headers, PREVIEW, { connectorKey: trader.connector.key, data });
    expect(foreign.error?.message).toBe('Please, connect the broker to submit test orders');
    const account = await gql(t, trader.headers, PREVIEW, { connectorKey: trader.connector.key, accountId: 'X', data });
    expect(account.error?.message).toBe('Please, connect the broker to submit test orders');
    await t.services.db.$client.query('update connectors set is_active = false where key = $1', [trader.connector.key]);
    const inactive = await gql(t, trader.headers, PREVIEW, { connectorKey: trader.connector.key, data });
    expect(inactive.error?.message).toBe('Please, reconnect the broker');
  });

  it("refuses what the broker's own checks refuse, with the live message (a broker without a preview)", async () => {
    const { id: userId, headers } = await insertTestUser(t.services, 'preview-checks@example.com');
    const accounts = [{ id: 'A1', name: 'Main', demo: true }];
    await t.services.db.$client.query(
      `insert into connectors (key, user_id, provider_name, is_active, accounts) values ($1, $2, 'alpaca', true, $3)`,
      ['c_preview_checks', userId, JSON.stringify(accounts)],
    );
    const preview = (order: Record<string, unknown>) =>
      gql<{ orderPreview: Record<string, unknown> }>(t, headers, PREVIEW, {
        connectorKey: 'c_preview_checks',
        data: JSON.stringify(order),
      });
    const refused = await preview({ symbol: 'AMD', action: 'close', quantity: 100, quantity_type: 'cash' });
    expect(refused.error?.message).toBe('Alpaca: close takes a fixed quantity or percent_of_position');
    const valid = await preview({ symbol: 'BTCUSD', class: 'crypto', action: 'sell', quantity: 1 });
    expect(valid.error).toBeUndefined();
    expect(valid.data?.orderPreview).toMatchObject({ status: 'draft', order: { action: 'sell' } });
  });
});
