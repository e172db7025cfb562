// REST API order tests: an order placed for a setupTrader's account as a personal API token
// would place it (no idempotency key), through the same placing the route calls.
import { accountId, requireApiAccount } from '../src/modules/api/accounts.ts';
import { placeApiOrder } from '../src/modules/api/place-order.ts';
import type { TestApp } from './app.ts';
import type { setupTrader } from './signal-fixtures.ts';

type Trader = Awaited<ReturnType<typeof setupTrader>>;

/** A buy limit far under the market: it rests, to be cancelled. */
export const RESTING_BUY = { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 1 } as const;

/** Places `order` (the JSON body's fields) for the trader's account; the API's answer. */
export async function placeTokenOrder(
  t: TestApp,
  trader: Trader,
  order: Record<string, unknown>,
  caller = 'API token',
) {
  const account = await requireApiAccount(t.services, trader.userId, accountId(trader.connector.key, trader.accountId));
  const placed = await placeApiOrder(t.services, t.app.signalRuntime, {
    userId: trader.userId,
    account,
    body: JSON.stringify(order),
    idempotencyKey: undefined,
    client: 'token:1',
    caller,
    address: '127.0.0.1',
    receivedAt: performance.now(),
  });
  if (!('order' in placed)) throw new Error(JSON.stringify(placed.error));
  return placed.order;
}
