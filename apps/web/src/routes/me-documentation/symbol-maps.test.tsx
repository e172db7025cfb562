import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { docsServer } from './test-fixtures.ts';

const PAPER = { key: 'c-paper', providerName: 'paper', accounts: [{ id: 'P-1' }] };
const HOOKS = [
  { key: 'h1', name: 'Crypto alerts', accountId: 'P-1', rules: '{"symbolMap": {"BTCUSD": "BTC/USD"}}' },
  { key: 'h2', name: 'Plain', accountId: 'P-1', rules: '{}' },
];

describe('documentation: symbol mapping of the caller’s webhooks', { timeout: 20_000 }, () => {
  it('shows what each mapping webhook would place for the order’s symbol', async () => {
    const handlers = {
      ...docsServer([PAPER]),
      PlaygroundHooks: fixture(() => ({ data: { hooks: HOOKS } })),
    };
    const { calls } = await renderRoute('/me/documentation/paper', { user: fakeUser(4), handlers });
    fireEvent.change(await screen.findByLabelText('Order (JSON)'), {
      target: { value: '{"symbol": "BTCUSD", "action": "buy", "quantity": 1}' },
    });
    const note = await screen.findByRole('region', { name: 'Symbol mapping on your webhooks' });
    expect(note.textContent).toContain('Crypto alerts places BTCUSD as BTC/USD');
    expect(note.textContent).not.toContain('Plain');
    expect(calls('PlaygroundHooks')[0]?.variables).toEqual({ connectorKey: 'c-paper' });
    fireEvent.change(screen.getByLabelText('Order (JSON)'), {
      target: { value: '{"symbol": "AAPL", "action": "buy", "quantity": 1}' },
    });
    expect(note.textContent).toContain("Crypto alerts leaves this order's symbol as it is (BTCUSD → BTC/USD)");
  });

  it('asks for the webhooks again on a later visit: a webhook deleted meanwhile maps nothing', async () => {
    // hookDelete answers a Boolean: nothing in the cache says the Hook list changed.
    let hooks = HOOKS;
    const handlers = { ...docsServer([PAPER]), PlaygroundHooks: fixture(() => ({ data: { hooks } })) };
    const { router } = await renderRoute('/me/documentation/paper', { user: fakeUser(4), handlers });
    fireEvent.change(await screen.findByLabelText('Order (JSON)'), {
      target: { value: '{"symbol": "BTCUSD", "action": "buy", "quantity": 1}' },
    });
    await screen.findByRole('region', { name: 'Symbol mapping on your webhooks' });
    await router.navigate('/me/report');
    await screen.findByRole('heading', { name: 'Reporting?' });
    hooks = [];
    await router.navigate('/me/documentation/paper');
    await screen.findByLabelText('Order (JSON)');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Symbol mapping on your webhooks' })).toBeNull());
  });

  it('shows nothing when no webhook of the account maps symbols', async () => {
    const handlers = { ...docsServer([PAPER]), PlaygroundHooks: fixture(() => ({ data: { hooks: [HOOKS[1]] } })) };
    const { calls } = await renderRoute('/me/documentation/paper', { user: fakeUser(4), handlers });
    await screen.findByLabelText('Order (JSON)');
    await waitForCall(() => calls('PlaygroundHooks').length > 0);
    expect(screen.queryByRole('region', { name: 'Symbol mapping on your webhooks' })).toBeNull();
  });
});

async function waitForCall(done: () => boolean) {
  for (let i = 0; i < 250 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(done()).toBe(true);
}
