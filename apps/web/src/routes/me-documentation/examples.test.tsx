import { currentExample } from '@router/orders';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { docsServer } from './test-fixtures.ts';

const open = (path: string) => renderRoute(path, { user: fakeUser(4), handlers: docsServer() });
const header = (name: string) => screen.findByRole('button', { name });
const item = (id: string) => document.getElementById(id) as HTMLElement;

describe('documentation: examples accordion (SPEC §2)', { timeout: 20_000 }, () => {
  it('lists the six examples, opens the one named by the hash', async () => {
    await open('/me/documentation/paper#bracket-order');
    expect((await header('Bracket order')).getAttribute('aria-expanded')).toBe('true');
    expect((await header('Limit order')).getAttribute('aria-expanded')).toBe('false');
    for (const title of [
      'Iron condor (multileg)',
      'Math expressions',
      'TrendSpider variables',
      'TradingView variables',
    ]) {
      expect(await header(title)).toBeTruthy();
    }
  });

  it('survives a hash that is not valid percent-encoding', async () => {
    await open('/me/documentation/paper#%E0');
    expect((await header('Bracket order')).getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('heading', { name: 'Examples' })).toBeTruthy();
  });

  it('warns when the broker lacks what an example needs', async () => {
    await open('/me/documentation/paper#iron-condor');
    await header('Iron condor (multileg)');
    expect(within(item('iron-condor')).getByText('This type of order is not available for Paper Trading')).toBeTruthy();
    expect(within(item('iron-condor')).queryByRole('button', { name: 'Try in the playground' })).toBeNull();
    expect(within(item('limit-order')).queryByText(/not available/)).toBeNull();
  });

  it('shows no warning where the example works', async () => {
    await open('/me/documentation/tradier#iron-condor');
    expect((await header('Iron condor (multileg)')).getAttribute('aria-expanded')).toBe('true');
    expect(within(item('iron-condor')).queryByText(/This type of order is not available/)).toBeNull();
    // Its written expiry (2027-12-17) is shown moved to a current one.
    const leg = currentExample('SPY_271217P00550000', Date.now());
    expect(within(item('iron-condor')).getByText(`"symbol[2]": "${leg}"`, { exact: false })).toBeTruthy();
  });

  it('puts an example into the playground and records the open item in the hash', async () => {
    const { router } = await open('/me/documentation/paper');
    fireEvent.click(await header('Limit order'));
    await waitFor(() => expect(router.state.location.hash).toBe('#limit-order'));
    fireEvent.click(within(item('limit-order')).getByRole('button', { name: 'Try in the playground' }));
    const text = (screen.getByLabelText('Order (JSON)') as HTMLTextAreaElement).value;
    expect(JSON.parse(text)).toEqual({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 185.5 });
  });

  it('documents the responses and the default payload', async () => {
    await open('/me/documentation/paper');
    expect(await screen.findByText('Success (201)')).toBeTruthy();
    expect(screen.getByText('Error (400)')).toBeTruthy();
    expect(screen.getByText(/"message": "No symbol found"/)).toBeTruthy();
    const webhook = screen.getByRole('region', { name: 'Sending orders to a webhook' });
    expect(within(webhook).getByText(/^\{\s+"symbol": "AAPL",\s+"action": "buy",\s+"quantity": 1\s+\}$/)).toBeTruthy();
    expect(screen.getByText(/\/hook\/\{shortKey\}/)).toBeTruthy();
  });
});
