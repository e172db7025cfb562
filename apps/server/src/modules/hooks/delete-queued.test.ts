// Deleting a webhook, or the broker connection holding it, drops the signals it had queued for its
// trading window (outsideWindow: "queue"; their rows go with the hook). Each was answered 202
// "to be placed when its window opens" and logged queued: its end is logged too, as a cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { paperOrders, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { closedToday } from '../../../test/trading-windows.ts';
import { listActions } from '../actions/list-actions.ts';
import { deleteConnector } from '../connectors/index.ts';
import { deleteHook, updateHook } from './index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Windows on every day but today (UTC): a signal now is queued for the next opening. */
const QUEUE = () => ({ tradingWindows: closedToday(), outsideWindow: 'queue' });

async function queuedTwo(email: string) {
  const trader = await setupTrader(t, email);
  const actor = { userId: trader.userId, address: null };
  await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(QUEUE()) });
  const ids: string[] = [];
  for (const quantity of [1, 2]) {
    const res = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity });
    expect(res.statusCode).toBe(202);
    ids.push(res.json().id);
  }
  await t.app.signalRuntime.writer.flush();
  return { trader, actor, ids };
}

async function cancelled(userId: number) {
  const actions = await listActions(t.services, userId, { code: 'QueuedSignalCancel' });
  return actions.map((action) => JSON.parse(action.metadata ?? '{}').id).sort();
}

describe('deleting a webhook with signals queued', () => {
  it('logs each queued signal it drops as cancelled, and places none of them', async () => {
    const { trader, actor, ids } = await queuedTwo('delete-queued@example.com');
    await deleteHook(t.services, actor, trader.hook.key);
    expect(await cancelled(trader.userId)).toEqual([...ids].sort());
    const [entry] = await listActions(t.services, trader.userId, { code: 'QueuedSignalCancel' });
    expect(entry?.description).toMatch(/^Queued signal \S+ cancelled: webhook deleted$/);
    expect(await t.app.signalRuntime.sweepQueue(new Date(Date.now() + 2 * 86_400_000))).toBe(0);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
  });

  it('does the same when the broker connection holding the webhook is deleted', async () => {
    const { trader, actor, ids } = await queuedTwo('delete-connector-queued@example.com');
    await deleteConnector(t.services, actor, trader.connector.key);
    expect(await cancelled(trader.userId)).toEqual([...ids].sort());
  });
});
