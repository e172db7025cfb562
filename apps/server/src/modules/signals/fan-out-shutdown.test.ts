// A fan-out leg still on its way when the server stops: its broker is asked for a price (a
// maxNotional rule) while the app closes. The close waits for it as for any signal in flight, so
// the copy is stored and placed once, not lost with nothing to show for it.
import type { Broker } from '@router/brokers';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/app.ts';
import { eventually, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { activateConnector } from '../connectors/index.ts';
import { updateHook } from '../hooks/index.ts';

describe('a fan-out leg in progress at shutdown', () => {
  it('is stored and placed before the app has closed', async () => {
    const flaky = flakyBroker();
    let quotes = 0;
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const quoting: Broker = {
      ...flaky.broker,
      descriptor: {
        ...flaky.broker.descriptor,
        name: 'quoting',
        has: { ...flaky.broker.descriptor.has, lastPrice: true },
      },
      async lastPrice() {
        quotes += 1;
        await gate;
        return 10;
      },
    };
    const t = await startTestApp({ brokers: [quoting] });
    let closed = false;
    try {
      const trader = await setupTrader(t, 'fan-closing@example.com', { credits: 10 });
      const actor = { userId: trader.userId, address: null };
      const copy = await activateConnector(t.services, actor, 'quoting', []);
      const copyAccount = copy.accounts[0]?.id as string;
      const rules = {
        maxNotional: 1_000_000,
        fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 1 }],
      };
      await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
      const first = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 3 });
      expect(first.statusCode).toBe(201);
      // The leg waits for its broker's price.
      await eventually(async () => quotes === 1);
      const closing = t.app.close();
      setTimeout(open, 300);
      await closing;
      closed = true;
      const { rows } = await t.services.db.$client.query<{ status: string }>(
        'select status from signals where user_id = $1 and account_id = $2',
        [trader.userId, copyAccount],
      );
      expect(rows).toEqual([{ status: 'filled' }]);
      expect(flaky.calls.placeOrder).toBe(1);
    } finally {
      open();
      if (!closed) await t.app.close();
      await t.services.identity.settled();
      await t.database.drop();
    }
  });
});
