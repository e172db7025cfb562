import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { docsServer } from './test-fixtures.ts';

const CUSTOMER = 4;
const open = (path: string, handlers = docsServer()) => renderRoute(path, { user: fakeUser(CUSTOMER), handlers });
const select = (label: string) => screen.findByLabelText(label) as Promise<HTMLSelectElement>;
const optionTexts = (element: HTMLSelectElement) => [...element.options].map((option) => option.text);
const order = async () => JSON.parse(((await screen.findByLabelText('Order (JSON)')) as HTMLTextAreaElement).value);
const choose = async (label: string, value: string) => fireEvent.change(await select(label), { target: { value } });

describe('documentation: broker select (SPEC §2)', { timeout: 20_000 }, () => {
  it('lists connected brokers, a separator, then the other active brokers; defaults to the first connected', async () => {
    await open('/me/documentation', docsServer([{ key: 'c1', providerName: 'paper', accounts: [{ id: 'P-1' }] }]));
    const broker = await select('Broker');
    expect(optionTexts(broker)).toEqual([
      'Paper Trading',
      '──────────',
      'Alpaca',
      'Kraken',
      'Tradier',
      'Schwab (beta)',
    ]);
    expect(broker.options[1]?.disabled).toBe(true);
    expect(broker.value).toBe('paper');
  });

  it('defaults to the first unconnected broker without connectors, with no separator', async () => {
    await open('/me/documentation');
    const broker = await select('Broker');
    expect(broker.value).toBe('alpaca');
    expect(optionTexts(broker)).not.toContain('──────────');
  });

  it('takes the route provider, and navigates on selection', async () => {
    const { router } = await open('/me/documentation/kraken');
    expect((await select('Broker')).value).toBe('kraken');
    await choose('Broker', 'tradier');
    await waitFor(() => expect(router.state.location.pathname).toBe('/me/documentation/tradier'));
    expect((await select('Broker')).value).toBe('tradier');
    expect((await order()).symbol).toBe('SPY');
  });

  it('keeps the documentation when the connectors cannot load, with a retry', async () => {
    let fail = true;
    const handlers = {
      ...docsServer([{ key: 'c1', providerName: 'kraken', accounts: [{ id: 'K' }] }]),
      PlaygroundConnectors: fixture(() =>
        fail
          ? graphQLError('Database unavailable', 'SERVICE_UNAVAILABLE')
          : docsServer([{ key: 'c1', providerName: 'kraken', accounts: [{ id: 'K' }] }]).PlaygroundConnectors({
              name: '',
              variables: {},
              headers: {},
            }),
      ),
    };
    await open('/me/documentation', handlers);
    expect((await screen.findByRole('alert')).textContent).toContain('Database unavailable');
    expect((await select('Broker')).value).toBe('alpaca');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText(/could not be loaded/)).toBeNull());
    expect(optionTexts(await select('Broker'))[0]).toBe('Kraken');
  });

  it('says so for an unknown route provider', async () => {
    await open('/me/documentation/nope');
    expect(await screen.findByText(/There is no broker named “nope”; showing Alpaca/)).toBeTruthy();
  });

  it('offers no unavailable broker, and says why when the route names one', async () => {
    await open('/me/documentation/lightspeed');
    expect(
      await screen.findByText('Lightspeed is unavailable: Lightspeed publishes no order API. Showing Alpaca.'),
    ).toBeTruthy();
    expect(optionTexts(await select('Broker'))).not.toContain('Lightspeed');
  });

  it('offers no unavailable broker even when the user has a connector of it', async () => {
    await open(
      '/me/documentation/lightspeed',
      docsServer([{ key: 'c1', providerName: 'lightspeed', accounts: [{ id: 'L-1' }] }]),
    );
    expect(
      await screen.findByText('Lightspeed is unavailable: Lightspeed publishes no order API. Showing Alpaca.'),
    ).toBeTruthy();
    expect(optionTexts(await select('Broker'))).not.toContain('Lightspeed');
  });

  it('shows the account select only for more than one account', async () => {
    const accounts = [
      { id: 'PA-1', name: 'Main', dataType: 'cash', dataCurrency: 'USD' },
      { id: 'PA-2', dataTitle: 'Margin 2', dataType: 'margin', dataCurrency: 'USD' },
    ];
    await open('/me/documentation/alpaca', docsServer([{ key: 'c1', providerName: 'alpaca', accounts }]));
    expect(optionTexts(await select('Account'))).toEqual(['PA-1 · Main · cash · USD', 'Margin 2 · margin · USD']);
  });

  it('hides the account select for a single account', async () => {
    await open(
      '/me/documentation/alpaca',
      docsServer([{ key: 'c1', providerName: 'alpaca', accounts: [{ id: 'A' }] }]),
    );
    await select('Broker');
    expect(screen.queryByLabelText('Account')).toBeNull();
  });
});

describe('documentation: selectors and the order (SPEC §4 playground rules)', { timeout: 20_000 }, () => {
  it('offers the asset class only for brokers with more than one', async () => {
    await open('/me/documentation/kraken');
    await select('Order type');
    expect(screen.queryByLabelText('Asset class')).toBeNull();
  });

  it('applies the rules: class example symbol, type prices, close forcing market', async () => {
    await open('/me/documentation/alpaca');
    expect(await order()).toEqual({ symbol: 'AAPL', action: 'buy', quantity: 1, class: 'stock', type: 'market' });
    await choose('Asset class', 'crypto');
    expect(await order()).toMatchObject({ symbol: 'BTC/USD', class: 'crypto' });
    await choose('Order type', 'limit');
    expect(await order()).toMatchObject({ type: 'limit', limit_price: 190.5 });
    await choose('Action', 'close');
    const closing = await order();
    expect(closing).toMatchObject({ action: 'close', type: 'market' });
    expect(closing).not.toHaveProperty('limit_price');
    await choose('Order type', 'stop');
    expect(await order()).toMatchObject({ action: 'buy', type: 'stop', stop_price: 185 });
  });

  it('prefills the order from the query string', async () => {
    await open('/me/documentation/alpaca?symbol=MSFT&action=sell&quantity=3&utm_source=x');
    expect(await order()).toEqual({ symbol: 'MSFT', action: 'sell', quantity: 3, class: 'stock', type: 'market' });
  });

  it('selectors follow edits of the text', async () => {
    await open('/me/documentation/alpaca');
    const textarea = await screen.findByLabelText('Order (JSON)');
    fireEvent.change(textarea, {
      target: { value: "{symbol: 'AAPL', action: 'sell', type: 'limit', limit_price: 1,}" },
    });
    expect((await select('Action')).value).toBe('sell');
    expect((await select('Order type')).value).toBe('limit');
  });

  it('keeps text that cannot be read when a selector is used, instead of rewriting the last readable order', async () => {
    await open('/me/documentation/alpaca');
    const textarea = (await screen.findByLabelText('Order (JSON)')) as HTMLTextAreaElement;
    const typed = '{"symbol": "MSFT", "action": "sell", "quantity": 250 2}';
    fireEvent.change(textarea, { target: { value: typed } });
    await choose('Order type', 'limit');
    await choose('Action', 'close');
    expect(textarea.value).toBe(typed);
  });

  it('says why a selector or a table value changed nothing on text that cannot be read', async () => {
    await open('/me/documentation/alpaca');
    const textarea = (await screen.findByLabelText('Order (JSON)')) as HTMLTextAreaElement;
    const typed = '{"symbol": "MSFT", "action": "sell", "quantity": 250 2}';
    fireEvent.change(textarea, { target: { value: typed } });
    expect(screen.queryByRole('alert')).toBeNull();
    await choose('Order type', 'limit');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The order was not changed: its text is not valid JSON (Colon expected at position 54). Correct it first.',
    );
    expect(textarea.getAttribute('aria-describedby')).toContain(alert.id);
    expect(textarea.value).toBe(typed);
    // Corrected: the message goes, and the next choice applies.
    fireEvent.change(textarea, { target: { value: '{"symbol": "MSFT", "action": "sell", "quantity": 250}' } });
    expect(screen.queryByRole('alert')).toBeNull();
    await choose('Order type', 'limit');
    expect(await order()).toMatchObject({ type: 'limit' });
    expect(screen.queryByRole('alert')).toBeNull();
    // A value clicked in the parameters table on unreadable text says so too.
    fireEvent.change(textarea, { target: { value: typed } });
    const table = await screen.findByRole('table');
    const durationRow = within(table).getByRole('rowheader', { name: 'duration' }).closest('tr') as HTMLElement;
    fireEvent.click(within(durationRow).getByRole('button', { name: 'gtc' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The order was not changed');
    expect(textarea.value).toBe(typed);
  });

  it.each([
    ['1e', 68],
    ['-', 68],
    ['2.', 68],
  ])('keeps a price typed half-way (%s) as typed instead of repairing it into a number', async (price, position) => {
    await open('/me/documentation/alpaca');
    const textarea = (await screen.findByLabelText('Order (JSON)')) as HTMLTextAreaElement;
    const typed = `{"symbol": "MSFT", "action": "buy", "type": "limit", "limit_price": ${price}}`;
    fireEvent.change(textarea, { target: { value: typed } });
    await choose('Action', 'sell');
    expect(textarea.value).toBe(typed);
    expect((await screen.findByRole('alert')).textContent).toBe(
      `The order was not changed: its text is not valid JSON (Incomplete number "${price}" at position ${position}). Correct it first.`,
    );
  });

  it("shows a class the broker does not trade as the order's, so the broker's first class can be chosen", async () => {
    await open('/me/documentation/alpaca');
    const textarea = await screen.findByLabelText('Order (JSON)');
    fireEvent.change(textarea, { target: { value: '{"symbol": "ESZ5", "action": "buy", "class": "future"}' } });
    const assetClass = await select('Asset class');
    await waitFor(() => expect(assetClass.value).toBe('future'));
    expect(assetClass.options[0]?.value).toBe('future');
    await choose('Asset class', 'stock');
    expect(await order()).toMatchObject({ class: 'stock', symbol: 'AAPL' });
  });

  it('fills the order from values and examples clicked in the parameters table', async () => {
    await open('/me/documentation/alpaca');
    const table = await screen.findByRole('table');
    const symbolRow = within(table).getByRole('rowheader', { name: 'symbol' }).closest('tr') as HTMLElement;
    fireEvent.click(within(symbolRow).getByRole('button', { name: 'BTC/USD' }));
    expect(await order()).toMatchObject({ symbol: 'BTC/USD', class: 'crypto' });
    const durationRow = within(table).getByRole('rowheader', { name: 'duration' }).closest('tr') as HTMLElement;
    expect(within(durationRow).getByText(/good till canceled: stays open/)).toBeTruthy();
    fireEvent.click(within(durationRow).getByRole('button', { name: 'gtc' }));
    expect(await order()).toMatchObject({ duration: 'gtc' });
  });

  it('makes a market order a limit or stop order when a price example is clicked, so Test is not refused', async () => {
    await open('/me/documentation/alpaca');
    const table = await screen.findByRole('table');
    const pick = (parameter: string, value: string) => {
      const row = within(table).getByRole('rowheader', { name: parameter }).closest('tr') as HTMLElement;
      fireEvent.click(within(row).getByRole('button', { name: value }));
    };
    expect(await order()).toMatchObject({ type: 'market' });
    pick('limit_price', '190.5');
    expect(await order()).toMatchObject({ type: 'limit', limit_price: 190.5 });
    pick('stop_price', '185');
    expect(await order()).toMatchObject({ type: 'stop_limit', limit_price: 190.5, stop_price: 185 });
  });

  it('shows a row only for the parameters the broker supports', async () => {
    await open('/me/documentation/kraken');
    const table = await screen.findByRole('table');
    const names = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(names).toEqual(['symbol', 'action', 'quantity', 'limit_price', 'typeadvanced']);
  });
});
