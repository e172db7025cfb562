import { MAX_SYMBOL_LENGTH } from '@router/orders';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { useLocation, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixture } from '../../test/fake-server.ts';
import { deferred, renderWithClient } from '../../test/render-with-client.tsx';
import { describedAs, orderAction, signinAction } from './activity-fixtures.ts';
import { ActivityPanel } from './activity-panel.tsx';
import type { ActionRow } from './use-activity.ts';

const trade = {
  hookKey: 'hk1',
  hookName: 'Main',
  via: null,
  providerName: 'paper',
  symbol: 'AAPL',
  side: 'buy',
  quantity: 2,
  orderType: 'market',
  price: 187.5,
  result: 'filled',
  status: 'filled',
  elapsedMs: 41,
  phases: { parse: 0.4, store: 1.2, broker: 38 },
  brokerOrderId: 'PO-77',
  order: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 2, type: 'market' }),
  isTest: false,
  repeat: false,
  checking: false,
};
const filled: ActionRow = { ...orderAction(1, { status: 'filled', id: 'sig1' }), trade };
const refused: ActionRow = {
  ...orderAction(2, { status: 'ValidationError', message: 'quantity: Required' }),
  trade: { ...trade, result: 'refused', quantity: null, price: null, brokerOrderId: null, order: null, elapsedMs: 3 },
};

const wait = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
const seen = (text: string) => vi.waitFor(() => screen.getAllByText(describedAs(text)));

function open(answers: (variables: Record<string, unknown>) => ActionRow[]) {
  return renderWithClient(<ActivityPanel />, {
    ActivityActions: fixture(async ({ variables }) => ({ data: { actions: answers(variables) } })),
  });
}

describe('activity as trade lines (issue #21)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows webhook, order, result pill, elapsed ms with its split and the broker order id', async () => {
    open(() => [filled, refused, signinAction(3)]);
    await seen('Webhook hook1 (paper#PA-1) called');
    const [line, refusedLine] = screen.getAllByTestId('trade-line') as HTMLElement[];
    expect(within(line!).getByTestId('trade-result').textContent).toBe('filled');
    expect(line?.textContent).toContain('Main');
    expect(line?.textContent).toContain('buy 2 AAPL market @ 187.5');
    expect(line?.textContent).toContain('41 ms');
    expect(line?.textContent).toContain('parse 0.4 · store 1.2 · broker 38');
    expect(line?.textContent).toContain('order PO-77');
    expect(within(refusedLine!).getByTestId('trade-result').textContent).toBe('refused');
    expect(refusedLine?.textContent).not.toContain('order PO-77');
  });

  it("groups a slow call's milliseconds in the line as in its detail (en-US, SPEC §9)", async () => {
    const slow = { ...trade, elapsedMs: 12345, phases: { parse: 0.4, store: 1.2, broker: 12340.5 } };
    open(() => [{ ...filled, trade: slow }]);
    const button = (await seen('Webhook hook1 (paper#PA-1) called'))[0] as HTMLElement;
    const line = screen.getByTestId('trade-line');
    expect(line.textContent).toContain('12,345 ms');
    expect(line.textContent).toContain('broker 12,340.5');
    fireEvent.click(button);
    const details = screen.getByTestId('order-call');
    expect(details.textContent).toContain('(parse 0.4 · store 1.2 · broker 12,340.5 ms)');
  });

  it('opens the request, the normalized order and the answer side by side', async () => {
    open(() => [filled]);
    const button = (await seen('Webhook hook1 (paper#PA-1) called'))[0] as HTMLElement;
    fireEvent.click(button);
    const details = screen.getByTestId('order-call');
    expect(within(details).getByText('Request')).toBeTruthy();
    expect(within(details).getByText('Normalized order')).toBeTruthy();
    expect(within(details).getByTestId('order-call-order').textContent).toContain('"type": "market"');
    expect(within(details).getByText('Response')).toBeTruthy();
    expect(details.textContent).toContain('(parse 0.4 · store 1.2 · broker 38 ms)');
  });

  it("opens filtered by a webhook from its link /me?hook=<key> (a deactivated webhook's last calls)", async () => {
    const { calls } = renderWithClient(
      <ActivityPanel />,
      { ActivityActions: fixture(async () => ({ data: { actions: [filled] } })) },
      '/me?hook=hk1',
    );
    await seen('Webhook hook1 (paper#PA-1) called');
    await wait(777);
    await vi.waitFor(() => expect(calls('ActivityActions').at(-1)?.variables).toEqual({ hookKey: 'hk1' }));
    expect((screen.getByLabelText('Webhook') as HTMLSelectElement).value).toBe('hk1');
  });

  it('keeps the search and filters in the address: a reload and Back show the same list', async () => {
    function Address() {
      const location = useLocation();
      const navigate = useNavigate();
      return (
        <>
          <output data-testid="address">{location.pathname + location.search}</output>
          <button type="button" onClick={() => void navigate('/me?hook=hk2')}>
            Another webhook
          </button>
          <button type="button" onClick={() => void navigate(-1)}>
            Back
          </button>
        </>
      );
    }
    const handlers = { ActivityActions: fixture(async () => ({ data: { actions: [filled] } })) };
    const first = renderWithClient(
      <>
        <ActivityPanel />
        <Address />
      </>,
      handlers,
    );
    await seen('Webhook hook1 (paper#PA-1) called');
    fireEvent.change(screen.getByLabelText('Result'), { target: { value: 'rejected' } });
    fireEvent.change(screen.getByLabelText('Symbol'), { target: { value: 'AAPL' } });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-11-27' } });
    fireEvent.change(screen.getByLabelText('Search actions'), { target: { value: 'paper' } });
    await wait(777);
    const filtered = {
      search: 'paper',
      result: 'rejected',
      symbol: 'AAPL',
      since: new Date(2026, 10, 27).getTime(),
      createdAtFrom: new Date(2026, 10, 28).getTime(),
    };
    await vi.waitFor(() => expect(first.calls('ActivityActions').at(-1)?.variables).toEqual(filtered));
    const address = screen.getByTestId('address').textContent ?? '';
    const url = new URL(address, 'http://localhost');
    expect(url.pathname).toBe('/me');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: 'paper',
      result: 'rejected',
      symbol: 'AAPL',
      date: '2026-11-27',
    });

    // Another address of the same screen (a webhook's link), then Back: the filters come back.
    fireEvent.click(screen.getByText('Another webhook'));
    await vi.waitFor(() => expect((screen.getByLabelText('Webhook') as HTMLSelectElement).value).toBe('hk2'));
    expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('');
    fireEvent.click(screen.getByText('Back'));
    await vi.waitFor(() => expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('rejected'));
    expect((screen.getByLabelText('Webhook') as HTMLSelectElement).value).toBe('');
    first.unmount();

    // A reload of that address.
    const reloaded = renderWithClient(<ActivityPanel />, handlers, address);
    await seen('Webhook hook1 (paper#PA-1) called');
    expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('rejected');
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('AAPL');
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-11-27');
    expect((screen.getByLabelText('Search actions') as HTMLInputElement).value).toBe('paper');
    await wait(777);
    await vi.waitFor(() => expect(reloaded.calls('ActivityActions').at(-1)?.variables).toEqual(filtered));
  });

  it('opened with filters in the address shows only the filtered list, never the unfiltered one first', async () => {
    const filteredAnswer = deferred<ActionRow[]>();
    const { calls } = renderWithClient(
      <ActivityPanel />,
      {
        ActivityActions: fixture(async ({ variables }) => ({
          data: { actions: variables.result ? await filteredAnswer.promise : [filled, signinAction(3)] },
        })),
      },
      '/me?result=refused',
    );
    // The unfiltered first load (SPEC §4) has answered and the filtered one is on its way.
    await vi.waitFor(() => expect(calls('ActivityActions')[1]?.variables).toEqual({ result: 'refused' }));
    await act(async () => {});
    expect(screen.queryByText('You signed in to the dashboard')).toBeNull();
    expect(screen.queryAllByTestId('trade-line')).toHaveLength(0);
    filteredAnswer.resolve([refused]);
    await vi.waitFor(() =>
      expect(screen.getAllByTestId('trade-result').map((pill) => pill.textContent)).toEqual(['refused']),
    );
    expect(screen.queryByText('You signed in to the dashboard')).toBeNull();
    expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('refused');
  });

  it('ignores a result or date in the address that the filters cannot hold', async () => {
    const { calls } = renderWithClient(
      <ActivityPanel />,
      { ActivityActions: fixture(async () => ({ data: { actions: [filled] } })) },
      '/me?result=bogus&date=yesterday&broker=paper',
    );
    await seen('Webhook hook1 (paper#PA-1) called');
    await wait(777);
    await vi.waitFor(() => expect(calls('ActivityActions').at(-1)?.variables).toEqual({ providerName: 'paper' }));
    expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('');
  });

  it('names the webhook of /me?hook=<key> in its filter even when none of its calls are shown', async () => {
    // A deleted webhook, or one never called: the list is filtered by it and comes back empty.
    const { calls } = renderWithClient(
      <ActivityPanel />,
      {
        ActivityActions: fixture(async ({ variables }) => ({
          data: { actions: variables.hookKey ? [] : [filled] },
        })),
      },
      '/me?hook=gone1',
    );
    await wait(777);
    await vi.waitFor(() => expect(calls('ActivityActions').at(-1)?.variables).toEqual({ hookKey: 'gone1' }));
    await seen('No actions found');
    const select = screen.getByLabelText('Webhook') as HTMLSelectElement;
    expect(select.value).toBe('gone1');
    expect(select.selectedOptions[0]?.textContent).toBe('gone1');
  });

  it("offers every webhook and broker of the trader's, not only those of the entries loaded", async () => {
    // The night session's calls are older than the page shown: its webhook is still offered, by name.
    const { calls } = renderWithClient(<ActivityPanel />, {
      ActivityActions: fixture(async ({ variables }) => ({
        data: { actions: variables.hookKey ? [] : [filled] },
      })),
      ActivityConnectors: fixture(async () => ({
        data: {
          connectors: [
            { key: 'c1', providerName: 'paper' },
            { key: 'c2', providerName: 'alpaca' },
          ],
        },
      })),
      ActivityHooks: fixture(async ({ variables }) => ({
        data: {
          hooks:
            variables.connectorKey === 'c2' ? [{ key: 'hk9', name: 'Night session' }] : [{ key: 'hk1', name: 'Main' }],
        },
      })),
    });
    await seen('Webhook hook1 (paper#PA-1) called');
    const webhook = screen.getByLabelText('Webhook') as HTMLSelectElement;
    await vi.waitFor(() =>
      expect([...webhook.options].map((option) => option.textContent)).toEqual([
        'Any webhook',
        'Main',
        'Night session',
      ]),
    );
    const broker = screen.getByLabelText('Broker') as HTMLSelectElement;
    expect([...broker.options].map((option) => option.value)).toEqual(['', 'paper', 'alpaca']);
    fireEvent.change(webhook, { target: { value: 'hk9' } });
    await vi.waitFor(() => expect(calls('ActivityActions').at(-1)?.variables).toEqual({ hookKey: 'hk9' }));
    await seen('No actions found');
    expect(webhook.selectedOptions[0]?.textContent).toBe('Night session');
  });

  it('takes in the Symbol box every symbol a signal may carry (up to the order language limit)', async () => {
    open(() => [filled]);
    await seen('Webhook hook1 (paper#PA-1) called');
    const box = screen.getByLabelText('Symbol') as HTMLInputElement;
    // NASDAQ:AAPL  271217C00150000 is 28 characters; a CFD or a pair with its exchange may be more.
    expect(box.maxLength).toBe(MAX_SYMBOL_LENGTH);
  });

  it('narrows the list to a range of days: Date to To', async () => {
    const { calls } = open(() => [filled]);
    await seen('Webhook hook1 (paper#PA-1) called');
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-11-23' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-27' } });
    await vi.waitFor(() =>
      expect(calls('ActivityActions').at(-1)?.variables).toEqual({
        since: new Date(2026, 10, 23).getTime(),
        createdAtFrom: new Date(2026, 10, 28).getTime(),
      }),
    );
    expect((screen.getByLabelText('To') as HTMLInputElement).min).toBe('2026-11-23');
  });

  it('offers the trade filters only once there is a trade', async () => {
    open(() => [signinAction(3)]);
    await seen('You signed in to the dashboard');
    expect(screen.queryByTestId('activity-filters')).toBeNull();
  });

  it('shows the request as sent to the broker, or why nothing was sent', async () => {
    const metadata = { ...JSON.parse(filled.metadata), signalId: 'sig1' };
    const sent: ActionRow = {
      ...filled,
      metadata: JSON.stringify({
        ...metadata,
        brokerRequest: { method: 'POST', path: '/v2/orders', body: { qty: '2' } },
      }),
    };
    const test: ActionRow = {
      ...filled,
      id: 9,
      metadata: JSON.stringify({ ...metadata, isTest: true }),
      trade: { ...trade, result: 'draft', isTest: true, hookName: 'Test hook' },
    };
    open(() => [sent, test, refused]);
    const buttons = (await seen('Webhook hook1 (paper#PA-1) called')) as HTMLElement[];
    for (const button of screen.getAllByRole('button', { expanded: false })) fireEvent.click(button);
    const [first, second, third] = screen.getAllByTestId('order-call-broker-request');
    expect(buttons.length).toBeGreaterThan(0);
    expect(first?.textContent).toBe('POST /v2/orders\n\n{\n  "qty": "2"\n}');
    expect(second?.textContent).toBe('Not sent: test webhook. The signal was checked and stored, no order was placed.');
    expect(third?.textContent).toBe('Not sent: the signal was refused before it reached the broker.');
    // A test webhook's result reads the same in the list, the filter and the detail.
    const testLine = screen.getAllByTestId('trade-line')[1] as HTMLElement;
    expect(within(testLine).getByTestId('trade-result').textContent).toBe('test · not sent');
    expect(within(testLine).queryByText('test', { exact: true })).toBeNull();
    const option = within(screen.getByLabelText('Result')).getByRole('option', { name: 'test · not sent' });
    expect((option as HTMLOptionElement).value).toBe('draft');
    const results = screen.getAllByTestId('order-call-result');
    expect(results[1]?.textContent).toContain('test · not sent');
    expect(results[1]?.textContent).toContain('nothing was sent to the broker');
  });

  it('names who placed a REST API order: the application, or the personal token', async () => {
    const byApp: ActionRow = { ...filled, trade: { ...trade, hookName: 'REST API', via: 'Journal Pro' } };
    const byToken: ActionRow = { ...filled, id: 5, trade: { ...trade, hookName: 'REST API', via: 'API token "bot"' } };
    open(() => [byApp, byToken, refused]);
    await seen('Webhook hook1 (paper#PA-1) called');
    const [app, token, hook] = screen.getAllByTestId('trade-line') as HTMLElement[];
    expect(within(app!).getByText('via Journal Pro')).toBeTruthy();
    expect(within(token!).getByText('via API token "bot"')).toBeTruthy();
    expect(hook?.textContent).toContain('Main');
    expect(hook?.textContent).not.toContain('via');
  });

  it('shows a signal queued outside the trading windows as queued, not refused', async () => {
    const queued: ActionRow = {
      ...orderAction(4, { status: 'queued', id: 'q1', place_at: '2024-02-01T00:00:00.000Z' }),
      trade: { ...trade, result: 'queued', status: 'queued', price: null, brokerOrderId: null, order: null },
    };
    open(() => [queued]);
    const button = (await seen('Webhook hook4 (paper#PA-1) called'))[0] as HTMLElement;
    const pill = within(screen.getByTestId('trade-line')).getByTestId('trade-result');
    expect(pill.textContent).toBe('queued');
    expect(pill.getAttribute('title')).toContain('sent when a window opens');
    fireEvent.click(button);
    expect(screen.getByTestId('order-call-broker-request').textContent).toBe(
      "Not sent yet: queued outside the webhook's trading windows. Its placement is an entry of its own.",
    );
    expect(within(screen.getByLabelText('Result')).getByRole('option', { name: 'queued' })).toBeTruthy();
  });

  it('tells what became of a queued signal: placed at the opening, refused then, or cancelled', async () => {
    const queued = (id: number, status: string): ActionRow => ({
      ...orderAction(id, { status: 'queued', id: `q${id}`, place_at: '2024-02-01T00:00:00.000Z' }),
      trade: { ...trade, result: 'queued', status, price: null, brokerOrderId: null, order: null },
    });
    open(() => [queued(5, 'cancelled'), queued(6, 'placed'), queued(7, 'refused')]);
    await seen('Webhook hook5 (paper#PA-1) called');
    const pills = screen.getAllByTestId('trade-result') as HTMLElement[];
    expect(pills.map((pill) => pill.textContent)).toEqual([
      'queued · cancelled',
      'queued · placed',
      'queued · refused',
    ]);
    expect(pills.map((pill) => pill.dataset.result)).toEqual(['queued', 'queued', 'queued']);
    expect(pills[0]?.title).toBe("Queued outside the webhook's trading windows, then cancelled: nothing was sent");
    expect(pills[1]?.title).toBe(
      "Queued outside the webhook's trading windows, then placed when a window opened (the placement is an entry of its own)",
    );
    expect(pills[2]?.title).toBe(
      "Queued outside the webhook's trading windows, then refused when a window opened: nothing was sent",
    );
    fireEvent.click(screen.getAllByRole('button', { expanded: false })[0] as HTMLElement);
    expect(screen.getByTestId('order-call-broker-request').textContent).toBe(
      "Not sent: queued outside the webhook's trading windows, then cancelled.",
    );
    expect(screen.getByTestId('order-call-result').textContent).toContain('then cancelled: nothing was sent');
  });

  it('filters by result, webhook, broker, symbol and date, and clears the filters', async () => {
    const { calls } = open((variables) => (Object.keys(variables).length === 0 ? [filled, refused] : [refused]));
    await seen('Webhook hook1 (paper#PA-1) called');
    const last = () => calls('ActivityActions').at(-1)?.variables;
    fireEvent.change(screen.getByLabelText('Result'), { target: { value: 'refused' } });
    await wait(777);
    await vi.waitFor(() => expect(last()).toEqual({ result: 'refused' }));
    fireEvent.change(screen.getByLabelText('Webhook'), { target: { value: 'hk1' } });
    await wait(777);
    await vi.waitFor(() => expect(last()).toEqual({ result: 'refused', hookKey: 'hk1' }));
    fireEvent.change(screen.getByLabelText('Broker'), { target: { value: 'paper' } });
    fireEvent.change(screen.getByLabelText('Symbol'), { target: { value: 'aapl' } });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2024-01-31' } });
    await wait(777);
    await vi.waitFor(() =>
      expect(last()).toEqual({
        result: 'refused',
        hookKey: 'hk1',
        providerName: 'paper',
        symbol: 'aapl',
        since: new Date(2024, 0, 31).getTime(),
        createdAtFrom: new Date(2024, 0, 32).getTime(),
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await wait(777);
    await vi.waitFor(() => expect(last()).toEqual({}));
    expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('');
    // Clear filters goes away with them: the focus moves to the first filter.
    expect(document.activeElement).toBe(screen.getByLabelText('Result'));
  });

  it('shows a signal sent again by its sender as a repeat, not as a second fill', async () => {
    // A repeat's entry names the first signal and keeps its own request (no broker request).
    const metadata = { ...JSON.parse(filled.metadata), signalId: 'sig1' };
    const repeat: ActionRow = {
      ...filled,
      id: 5,
      metadata: JSON.stringify(metadata),
      trade: { ...trade, repeat: true },
    };
    open(() => [repeat, filled]);
    await seen('Webhook hook1 (paper#PA-1) called');
    const [again, first] = screen.getAllByTestId('trade-result') as HTMLElement[];
    expect(first?.textContent).toBe('filled');
    expect(again?.textContent).toBe('repeat');
    expect(again?.title).toBe('Sent again by its sender: answered as the first signal, nothing placed again');
    fireEvent.click(screen.getAllByRole('button', { expanded: false })[0] as HTMLElement);
    expect(screen.getByTestId('order-call-broker-request').textContent).toBe(
      'Not sent again: a repeat of an earlier signal, answered as that one. No second order was placed.',
    );
  });

  it('says an unknown outcome is being checked only while it is', async () => {
    const unknown = (id: number, checking: boolean): ActionRow => ({
      ...filled,
      id,
      trade: { ...trade, result: 'unknown', status: 'accepted', checking },
    });
    open(() => [unknown(6, true), unknown(7, false)]);
    await seen('Webhook hook1 (paper#PA-1) called');
    const [checking, final] = screen.getAllByTestId('trade-result') as HTMLElement[];
    expect(checking?.title).toBe('No answer from the broker yet: it is being checked');
    expect(final?.title).toBe(
      'The broker could not confirm the order, and is no longer asked: check your broker account',
    );
    expect(final?.title).not.toContain('being checked');
  });
});
