// A call queued outside its webhook's trading windows reads as what became of it: its activity
// entry (written when it was queued) tells, in its status, whether it is still waiting, was placed
// at the opening, refused then, or cancelled by the trader; never "sent when a window opens" for
// a signal that will not be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { closedToday, nextMidnight } from '../../../test/trading-windows.ts';
import { updateHook } from '../hooks/index.ts';
import { listActions } from './list-actions.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const CANCEL = 'mutation($id: String!) { queuedSignalCancel(id: $id) { id status } }';

describe('a queued call in the activity', () => {
  it('reads queued while waiting, then cancelled or placed as it became', async () => {
    const trader = await setupTrader(t, 'queued-line@example.com', { credits: 10 });
    const rules = { tradingWindows: closedToday(), outsideWindow: 'queue', maxLagSeconds: 30 };
    const actor = { userId: trader.userId, address: null };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    const send = async (symbol: string) => {
      const answer = await postSignal(t, trader.shortKey, {
        symbol,
        action: 'buy',
        quantity: 1,
        time: new Date().toISOString(),
      });
      expect(answer.statusCode).toBe(202);
      return answer.json().id as string;
    };
    const cancelled = await send('MSFT');
    await send('AAPL');
    const queuedLines = async () => {
      await t.app.signalRuntime.writer.flush();
      const entries = await listActions(t.services, trader.userId, { code: 'Order', result: 'queued' });
      return entries.map((entry) => [entry.trade?.symbol, entry.trade?.result, entry.trade?.status]);
    };
    expect(await queuedLines()).toEqual([
      ['AAPL', 'queued', 'queued'],
      ['MSFT', 'queued', 'queued'],
    ]);
    const cancel = await gqlAs(t, trader.headers, CANCEL, { id: cancelled });
    expect(cancel.errors).toBeUndefined();
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    // Still found as queued calls (the Result filter), each with what became of it.
    expect(await queuedLines()).toEqual([
      ['AAPL', 'queued', 'placed'],
      ['MSFT', 'queued', 'cancelled'],
    ]);
  });
});
