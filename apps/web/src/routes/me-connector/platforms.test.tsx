// Issue #21 on Brokers & Webhooks: "Connect TradingView" per webhook (URL, reachability warning,
// messages for the broker, steps, test signal) and reactivating a deactivated webhook.

import { HIDDEN_HOOK_URL_TEXT, HIDDEN_SHORT_KEY } from '@router/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UNREACHABLE_TEXT } from '../../lib/unreachable.ts';
import { CUSTOMER, connector, hook, TEST_PROVIDERS } from '../../test/connectors.ts';
import { type FakeHandler, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const PAPER_REFERENCE = {
  symbol: { examples: ['AAPL', 'BTCUSD'], examplesClass: ['stock', 'crypto'] },
  class: { values: ['stock', 'crypto'] },
  action: { values: ['buy', 'sell', 'close', 'cancel'] },
  quantity: {},
  type: { values: ['market', 'limit'] },
  limit_price: { examples: [185.5] },
  take_profit_price: {},
  stop_loss_price: {},
  client_id: {},
};
const providers = TEST_PROVIDERS.map((p) => (p.name === 'paper' ? { ...p, reference: PAPER_REFERENCE } : p));

function render(hooks: ReturnType<typeof hook>[], handlers: Record<string, FakeHandler> = {}) {
  return renderRoute('/me/connector', {
    user: CUSTOMER,
    handlers: {
      Providers: fixture(() => ({ data: { providers: JSON.stringify(providers) } })),
      Connectors: fixture(() => ({ data: { connectors: [connector({ key: 'p' })] } })),
      Hooks: fixture(() => ({ data: { hooks } })),
      ...handlers,
    },
  });
}

const PUBLIC = 'https://router.example.com/hook/h1ShortKey000000000000';

async function openPanel(name: string) {
  const button = await screen.findByRole('button', { name: `Connect TradingView to webhook ${name}` });
  expect(button.textContent).toBe('Connect TradingView');
  button.focus();
  fireEvent.click(button);
  return { button, dialog: await screen.findByRole('dialog', { name: `Connect TradingView · ${name}` }) };
}

function answerHook(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    if (!String(input).startsWith('/hook/')) throw new Error(`unexpected fetch ${String(input)}`);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
}

describe('Connect TradingView', () => {
  it('shows the URL, the messages for the broker with copy buttons, the steps, and no warning for a public URL', async () => {
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Swing', url: PUBLIC })]);
    const { dialog } = await openPanel('Swing');
    expect((within(dialog).getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(PUBLIC);
    expect(within(dialog).getByRole('button', { name: 'Copy URL' })).toBeTruthy();
    expect(within(dialog).queryByText(/cannot reach this URL/)).toBeNull();
    const strategy = within(dialog).getByLabelText('Strategy alert') as HTMLTextAreaElement;
    expect(JSON.parse(strategy.value)).toEqual({
      symbol: '{{ticker}}',
      action: '{{strategy.order.action}}',
      quantity: '{{strategy.order.contracts}}',
      client_id: '{{strategy.order.id}}-{{timenow}}',
    });
    expect(JSON.parse((within(dialog).getByLabelText('Plain alert') as HTMLTextAreaElement).value)).toEqual({
      symbol: '{{ticker}}',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: '{{close}}',
    });
    expect(within(dialog).getByRole('button', { name: 'Copy strategy alert' })).toBeTruthy();
    expect(within(dialog).getByText(/Under/).textContent).toMatch(/Webhook URL and paste the webhook URL/);
    expect(within(dialog).getByText('{{strategy.order.contracts}}')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('tab', { name: 'TrendSpider' }));
    expect(JSON.parse((within(dialog).getByLabelText('TrendSpider alert') as HTMLTextAreaElement).value)).toMatchObject(
      { symbol: '%alert_symbol%', limit_price: '%last_price%' },
    );
    // The title names the chosen platform.
    expect(screen.getByRole('dialog', { name: 'Connect TrendSpider · Swing' })).toBe(dialog);
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Zapier' }));
    expect(screen.getByRole('dialog', { name: 'Connect Zapier · Swing' })).toBe(dialog);
    expect(within(dialog).getByText(/Custom Request/)).toBeTruthy();
    expect(JSON.parse((within(dialog).getByLabelText('Zapier request data') as HTMLTextAreaElement).value)).toEqual({
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
    });
  });

  it('warns when TradingView cannot reach the URL (localhost:3000), saying how to fix it', async () => {
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Local', url: 'http://localhost:3000/hook/abc' })]);
    const { dialog } = await openPanel('Local');
    const warning = within(dialog).getByText('TradingView cannot reach this URL.').parentElement as HTMLElement;
    expect(warning.textContent).toMatch(/port 80 or 443/);
    expect(warning.textContent).toMatch(/on port 3000/);
    expect(warning.textContent).toMatch(/reverse proxy/);
    expect(warning.textContent).toMatch(/tunnel/);
  });

  it('sends a test signal through a test hook at once and shows the answer', async () => {
    const fetch = answerHook(201, { id: 'sig-1', status: 'draft', status_description: 'Paper Trading: test order' });
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Tester', isTest: true, url: PUBLIC })]);
    const { dialog } = await openPanel('Tester');
    const body = within(dialog).getByLabelText('Test signal body') as HTMLTextAreaElement;
    expect(JSON.parse(body.value)).toMatchObject({ symbol: 'AAPL', action: 'buy', quantity: '1' });
    expect(JSON.parse(body.value).client_id).toMatch(/^Long-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test signal' }));
    expect(await within(dialog).findByText('Answer: 201')).toBeTruthy();
    expect(within(dialog).getByText('test · not sent', { selector: 'span' })).toBeTruthy();
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/hook/h1ShortKey000000000000');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toMatchObject({ symbol: 'AAPL' });
  });

  it('asks before a live hook places a real order, and shows a refusal', async () => {
    const fetch = answerHook(400, { status: 'ValidationError', message: 'symbol: Paper: Symbol not found' });
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Live', url: PUBLIC })]);
    const { dialog } = await openPanel('Live');
    fireEvent.change(within(dialog).getByLabelText('Test signal body'), {
      target: { value: '{"symbol": "ZZZZZQ", "action": "buy", "quantity": 1}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test signal' }));
    const confirm = within(dialog).getByRole('button', { name: 'Place a real order' });
    expect(within(dialog).getByText(/places a real order at Paper Trading and spends/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(confirm));
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test signal' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place a real order' }));
    expect(await within(dialog).findByText('Answer: 400')).toBeTruthy();
    expect(within(dialog).getByText(/Symbol not found/, { selector: 'p' })).toBeTruthy();
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({
      symbol: 'ZZZZZQ',
      action: 'buy',
      quantity: 1,
    });
  });

  it('says a live hook refuses the test signal when no signals are left, instead of promising a real order', async () => {
    const message = 'No signals left: top up in Account & Billing';
    const fetch = answerHook(400, { status: 'ExecutionError', message });
    const out = { balance: 0, lastGrant: 5, unlimited: false, cardPayments: false };
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Live', url: PUBLIC })], {
      CreditsBanner: fixture(() => ({ data: { account: out } })),
    });
    const { dialog } = await openPanel('Live');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test signal' }));
    await within(dialog).findByText(/is a live webhook and no signals are left: it refuses this signal/);
    expect(within(dialog).queryByText(/places a real order/)).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Account & Billing' }).getAttribute('href')).toBe('/me/account');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send it anyway' }));
    expect(await within(dialog).findByText('Answer: 400')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('offers no test signal for a live hook whose URL the server hides (admin proxy mode), saying why', async () => {
    const fetch = answerHook(201, {});
    const hidden = `https://router.example.com/hook/${HIDDEN_SHORT_KEY}`;
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Live', shortKey: HIDDEN_SHORT_KEY, url: hidden })]);
    const { dialog } = await openPanel('Live');
    expect((within(dialog).getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(hidden);
    expect(within(dialog).getByText(HIDDEN_HOOK_URL_TEXT)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Send test signal' })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps an edited test signal body when another platform tab is chosen', async () => {
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Tester', isTest: true, url: PUBLIC })]);
    const { dialog } = await openPanel('Tester');
    const body = within(dialog).getByLabelText('Test signal body') as HTMLTextAreaElement;
    const edited = '{"symbol": "MSFT", "action": "sell", "quantity": 7}';
    fireEvent.change(body, { target: { value: edited } });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'TrendSpider' }));
    await within(dialog).findByLabelText('TrendSpider alert');
    expect(body.value).toBe(edited);
  });

  it('says so when the server cannot be reached', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Offline', isTest: true, url: PUBLIC })]);
    const { dialog } = await openPanel('Offline');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test signal' }));
    expect(await within(dialog).findByText(UNREACHABLE_TEXT)).toBeTruthy();
  });

  it('returns focus to the button when closed', async () => {
    await render([hook({ key: 'h1', accountId: 'PA-1', name: 'Focus', url: PUBLIC })]);
    const { button, dialog } = await openPanel('Focus');
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
  });
});

describe('reactivating a webhook', () => {
  const off = hook({
    key: 'h1',
    accountId: 'PA-1',
    name: 'Broken',
    isActive: false,
    deactivatedReason: 'too many invalid requests',
  });

  it('shows why it was deactivated and reactivates after a confirmation that says why', async () => {
    let active = false;
    const { calls } = await render([], {
      Hooks: fixture(() => ({
        data: { hooks: [{ ...off, isActive: active, deactivatedReason: active ? null : off.deactivatedReason }] },
      })),
      HookActivate: fixture(() => {
        active = true;
        return { data: { hookActivate: { key: 'h1', isActive: true, deactivatedReason: null } } };
      }),
    });
    const row = (await screen.findByText('Broken')).closest('li') as HTMLElement;
    expect(within(row).getByText(/too many invalid requests within an hour/)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Reactivate webhook Broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate webhook' });
    expect(within(dialog).getByText(/too many invalid requests within an hour/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reactivate webhook' })).toBeNull());
    expect(calls('HookActivate')[0]?.variables).toEqual({ key: 'h1' });
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Reactivate webhook Broken' })).toBeNull());
    expect(within(row).getByText('active')).toBeTruthy();
  });

  it('keeps the dialog open with the server message when reactivation is refused', async () => {
    await render([off], {
      HookActivate: fixture(() => graphQLError("This webhook's account is no longer connected")),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Reactivate webhook Broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate webhook' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      "This webhook's account is no longer connected",
    );
  });

  it('says alerts stay refused after reactivating while the broker connection is deactivated too', async () => {
    await render([off], {
      Connectors: fixture(() => ({ data: { connectors: [connector({ key: 'p', isActive: false })] } })),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Reactivate webhook Broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate webhook' });
    expect(within(dialog).queryByText(/place orders again/)).toBeNull();
    expect(
      within(dialog).getByText(
        'Its broker connection is deactivated too: alerts sent to its URL stay refused until you reconnect the broker.',
      ),
    ).toBeTruthy();
  });

  it('offers no reactivation for a webhook whose account is gone', async () => {
    await render([{ ...off, accountId: 'GONE' }]);
    const row = (await screen.findByText('Broken')).closest('li') as HTMLElement;
    expect(within(row).getByText(/no longer connected/)).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Reactivate/ })).toBeNull();
  });
});

describe('provider tiles', () => {
  it('show a logo, what the broker supports and a beta badge', async () => {
    await render([]);
    const grid = await screen.findByRole('list', { name: 'Brokers' });
    const paper = within(grid).getByRole('link', { name: 'Connect Paper Trading' });
    expect(paper.querySelector('.brand-monogram')?.textContent).toBe('PT');
    const supports = document.getElementById(paper.getAttribute('aria-describedby') ?? '') as HTMLElement;
    expect(supports.textContent).toContain('Stock, Crypto');
    expect(supports.textContent).toContain('Market, Limit');
    expect(within(supports).getByText('brackets')).toBeTruthy();
    expect(within(supports).queryByText('multi-leg')).toBeNull();
    expect(within(grid).getByRole('link', { name: 'Connect Schwab (beta)' }).textContent).toContain('beta');
    const lightspeed = within(grid).getByRole('link', { name: 'Lightspeed (unavailable)' });
    expect(lightspeed.textContent).toContain('Unavailable');
    expect(lightspeed.getAttribute('aria-describedby')).toBeNull();
    const card = await screen.findByRole('article', { name: 'Paper Trading' });
    expect(within(card).getByText(/^Supports: Stock, Crypto · Market, Limit · brackets$/)).toBeTruthy();
  });
});
