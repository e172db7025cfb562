// Every change that sends hook_changed also drops the hooks from the changing instance's own cache
// once committed: the instance whose cache is checked here hears no notifications at all (as one
// whose own hook_changed has not come back yet), so only that drop can make it see the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import type { Services } from '../../services.ts';
import { activateConnector } from '../connectors/activate.ts';
import { deactivateConnector } from '../connectors/deactivate.ts';
import { deleteConnector } from '../connectors/manage.ts';
import { activateHook } from './activate.ts';
import { HookCache, keepHookCache } from './hook-cache.ts';
import { loadHookEntry } from './hook-entry.ts';
import { createHook } from './manage.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [fakeKeyBroker().broker] });
});
afterAll(() => t.close());

/** An instance of its own: its services and a cache no hook_changed reaches. */
function deafInstance(): { services: Services; cache: HookCache } {
  const services = { ...t.services };
  const cache = new HookCache((shortKey) => loadHookEntry(services, shortKey));
  keepHookCache(services, cache);
  return { services, cache };
}

async function connectorId(key: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ id: number }>('select id from connectors where key = $1', [key]);
  return Number(rows[0]?.id);
}

describe('a hook change on this instance', () => {
  it('a connector deactivated here refuses the next signal here at once', async () => {
    const trader = await setupTrader(t, 'deaf-deactivate@example.com');
    const { services, cache } = deafInstance();
    expect((await cache.get(trader.shortKey))?.connectorActive).toBe(true);
    expect(await deactivateConnector(services, await connectorId(trader.connector.key), 'credentials refused')).toBe(
      true,
    );
    expect((await cache.get(trader.shortKey))?.connectorActive).toBe(false);
  });

  it('a connector deleted here leaves no cached hook here', async () => {
    const trader = await setupTrader(t, 'deaf-delete@example.com');
    const { services, cache } = deafInstance();
    expect(await cache.get(trader.shortKey)).not.toBeNull();
    await deleteConnector(services, { userId: trader.userId, address: null }, trader.connector.key);
    expect(await cache.get(trader.shortKey)).toBeNull();
  });

  it('a connector reconnected here makes its hooks usable here at once', async () => {
    const { userId } = await setupTrader(t, 'deaf-reconnect@example.com');
    const actor = { userId, address: null };
    const connector = await activateConnector(t.services, actor, 'keyfake', ['key-1', 'sekret-ok']);
    const hook = await createHook(t.services, actor, { connectorKey: connector.key, accountId: 'L-1', name: 'Key' });
    const { services, cache } = deafInstance();
    await deactivateConnector(t.services, await connectorId(connector.key), 'credentials refused');
    expect((await cache.get(hook.shortKey))?.connectorActive).toBe(false);
    expect((await activateConnector(services, actor, 'keyfake', ['key-2', 'sekret-ok'])).key).toBe(connector.key);
    expect((await cache.get(hook.shortKey))?.connectorActive).toBe(true);
  });

  it('a hook activated here places the next signal here at once', async () => {
    const trader = await setupTrader(t, 'deaf-hook@example.com');
    const { services, cache } = deafInstance();
    await t.database.pool.query(
      "update hooks set is_active = false, deactivated_reason = 'too many' where short_key = $1",
      [trader.shortKey],
    );
    expect((await cache.get(trader.shortKey))?.isActive).toBe(false);
    await activateHook(services, { userId: trader.userId, address: null }, trader.hook.key);
    expect((await cache.get(trader.shortKey))?.isActive).toBe(true);
  });
});
