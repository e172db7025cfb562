import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeUser, fixture, type GraphQLPayload } from '../../test/fake-server.ts';
import { click, renderRoute } from '../../test/render-route.tsx';
import { type ConnectorFixture, docsServer } from './test-fixtures.ts';

const PAPER = { key: 'c-paper', providerName: 'paper', accounts: [{ id: 'P-1' }, { id: 'P-2' }] };

function open(connectors: ConnectorFixture[], preview?: Parameters<typeof fixture>[0]) {
  const handlers = { ...docsServer(connectors), ...(preview ? { PlaygroundOrderPreview: fixture(preview) } : {}) };
  return renderRoute('/me/documentation/paper', { user: fakeUser(4), handlers });
}

const typeOrder = async (text: string) =>
  fireEvent.change(await screen.findByLabelText('Order (JSON)'), { target: { value: text } });

describe('documentation: Test (SPEC §4 test flow, §8 messages)', { timeout: 20_000 }, () => {
  it('asks to connect the broker when no connector exists for it', async () => {
    const { calls } = await open([{ key: 'c1', providerName: 'alpaca', accounts: [{ id: 'A' }] }]);
    await screen.findByLabelText('Order (JSON)');
    click('Test');
    expect(await screen.findByText('Please, connect the broker to submit test orders')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Brokers & Webhooks' }).getAttribute('href')).toBe(
      '/me/connector/paper',
    );
    expect(calls('PlaygroundOrderPreview')).toHaveLength(0);
  });

  it('asks to reconnect an inactive connector', async () => {
    await open([{ ...PAPER, isActive: false }]);
    await screen.findByLabelText('Order (JSON)');
    click('Test');
    expect(await screen.findByText('Please, reconnect the broker')).toBeTruthy();
  });

  it('shows the JSON repair error with its position', async () => {
    const { calls } = await open([PAPER]);
    await typeOrder('{"symbol": "AAPL", "quantity": 1 2}');
    click('Test');
    const box = await screen.findByTestId('test-error');
    expect(box.textContent).toContain('Invalid JSON');
    expect(box.textContent).toContain('Colon expected at position 34');
    expect(calls('PlaygroundOrderPreview')).toHaveLength(0);
  });

  it('sends the repaired order for the chosen account; shows the fields without _ and null ones', async () => {
    const { calls } = await open([PAPER], () => ({
      data: {
        orderPreview: {
          id: 'sig-1',
          status: 'draft',
          status_description: 'Preview, nothing placed.',
          price: null,
          _trace: 'internal',
          order: { symbol: 'AAPL', action: 'buy', quantity: 2, _raw: 'x' },
        },
      },
    }));
    fireEvent.change(await screen.findByLabelText('Account'), { target: { value: 'c-paper P-2' } });
    await typeOrder("{symbol: 'AAPL', action: 'buy', quantity: 2,}");
    click('Test');
    const box = await screen.findByTestId('test-success');
    expect(calls('PlaygroundOrderPreview')[0]?.variables).toEqual({
      connectorKey: 'c-paper',
      accountId: 'P-2',
      data: '{"symbol":"AAPL","action":"buy","quantity":2}',
    });
    expect(within(box).getByText('sig-1')).toBeTruthy();
    expect(within(box).getByText('Preview, nothing placed.')).toBeTruthy();
    expect(within(box).queryByText('price')).toBeNull();
    expect(box.textContent).not.toContain('_trace');
    expect(box.textContent).not.toContain('_raw');
    expect(box.querySelector('[aria-hidden="true"]')?.textContent).toMatch(/\p{Extended_Pictographic}/u);
  });

  it('says a repaired text would be refused by the webhook, and shows the strict body to paste', async () => {
    const { calls } = await open([PAPER], () => ({ data: { orderPreview: { id: 'sig-1', status: 'draft' } } }));
    const loose = "{symbol: 'AAPL', action: 'buy', quantity: 2, /* entry */}";
    await typeOrder(loose);
    click('Test');
    const notice = await screen.findByTestId('test-repaired');
    expect(notice.textContent).toContain('not strict JSON');
    expect(notice.textContent).toContain('a webhook would refuse it as typed');
    const body = within(notice).getByTestId('test-repaired-body').textContent ?? '';
    expect(() => JSON.parse(loose)).toThrow(); // What the hook does with the text as typed.
    expect(JSON.parse(body)).toEqual({ symbol: 'AAPL', action: 'buy', quantity: 2 });
    expect(JSON.stringify(JSON.parse(body))).toBe(calls('PlaygroundOrderPreview')[0]?.variables.data);
    expect(within(await screen.findByTestId('test-success')).getByText('sig-1')).toBeTruthy();

    click('Use this body');
    expect((screen.getByLabelText('Order (JSON)') as HTMLTextAreaElement).value).toBe(body);
    click('Test');
    await waitFor(() => expect(calls('PlaygroundOrderPreview')).toHaveLength(2));
    await screen.findByTestId('test-success');
    expect(screen.queryByTestId('test-repaired')).toBeNull();
  });

  it('copies a loose text as the strict body a webhook takes', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await open([PAPER]);
    await typeOrder("{symbol: 'AAPL', action: 'buy', quantity: 2,}");
    click('Copy as strict JSON');
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText.mock.calls[0]?.[0]).toBe('{\n  "symbol": "AAPL",\n  "action": "buy",\n  "quantity": 2\n}');
    // Strict text is copied as typed.
    await typeOrder('{"symbol": "AAPL", "action": "buy", "quantity": 2}');
    fireEvent.click(within(screen.getByRole('region', { name: 'Playground' })).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2));
    expect(writeText.mock.calls[1]?.[0]).toBe('{"symbol": "AAPL", "action": "buy", "quantity": 2}');
  });

  it('shows no repair notice for strict JSON', async () => {
    await open([PAPER], () => ({ data: { orderPreview: { id: 'sig-1', status: 'draft' } } }));
    await typeOrder('{"symbol": "AAPL", "action": "buy", "quantity": 2}');
    click('Test');
    await screen.findByTestId('test-success');
    expect(screen.queryByTestId('test-repaired')).toBeNull();
  });

  it('shows the error name and message of a refused order', async () => {
    await open([PAPER], () => ({
      data: null,
      errors: [
        {
          message: 'Paper Trading: symbol: required',
          extensions: { code: 'BAD_USER_INPUT', status: 'ValidationError' },
        },
      ],
    }));
    await screen.findByLabelText('Order (JSON)');
    const test = screen.getByRole('button', { name: 'Test' });
    test.focus();
    fireEvent.click(test);
    const box = await screen.findByTestId('test-error');
    expect(within(box).getByText('ValidationError')).toBeTruthy();
    expect(within(box).getByText('Paper Trading: symbol: required')).toBeTruthy();
    // Test was disabled while testing: the focus goes to the result, read out there.
    await waitFor(() => expect(document.activeElement).toBe(box));
  });

  it('shows a rejected preview as a warning', async () => {
    await open([PAPER], () => ({
      data: { orderPreview: { id: 'x', status: 'rejected', status_description: 'Insufficient buying power' } },
    }));
    await screen.findByLabelText('Order (JSON)');
    click('Test');
    expect((await screen.findByTestId('test-warning')).textContent).toContain('Insufficient buying power');
  });
});

describe('documentation: Test result and the chosen account', { timeout: 20_000 }, () => {
  it('sends no second preview on Ctrl+Enter while one is on its way (the Test button is disabled)', async () => {
    const later: { answer?: (payload: GraphQLPayload) => void } = {};
    const { calls } = await open(
      [PAPER],
      () =>
        new Promise<GraphQLPayload>((resolve) => {
          later.answer = resolve;
        }),
    );
    await typeOrder("{symbol: 'AAPL', action: 'buy', quantity: 2}");
    screen.getByLabelText('Order (JSON)').focus();
    fireEvent.keyDown(screen.getByLabelText('Order (JSON)'), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(later.answer).toBeDefined());
    expect((screen.getByRole('button', { name: 'Testing…' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByLabelText('Order (JSON)'), { key: 'Enter', ctrlKey: true });
    await act(async () => {});
    expect(calls('PlaygroundOrderPreview')).toHaveLength(1);
    later.answer?.({ data: { orderPreview: { id: 'sig-P-1', status: 'draft' } } });
    expect(within(await screen.findByTestId('test-success')).getByText('sig-P-1')).toBeTruthy();
    // Tested from the order with Ctrl+Enter: the focus stays there, to edit on.
    expect(document.activeElement).toBe(screen.getByLabelText('Order (JSON)'));
  });

  it('drops the result (and an answer still on its way) when another account is chosen', async () => {
    const later: { answer?: (payload: GraphQLPayload) => void } = {};
    const { calls } = await open([PAPER], (request) =>
      request.variables.accountId === 'P-1'
        ? { data: { orderPreview: { id: 'sig-P-1', status: 'draft' } } }
        : new Promise<GraphQLPayload>((resolve) => {
            later.answer = resolve;
          }),
    );
    await typeOrder("{symbol: 'AAPL', action: 'buy', quantity: 2}");
    click('Test');
    expect(within(await screen.findByTestId('test-success')).getByText('sig-P-1')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'c-paper P-2' } });
    expect(screen.queryByTestId('test-success')).toBeNull();

    click('Test');
    await waitFor(() => expect(later.answer).toBeDefined());
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'c-paper P-1' } });
    later.answer?.({ data: { orderPreview: { id: 'sig-P-2', status: 'draft' } } });
    await waitFor(() => expect(calls('PlaygroundOrderPreview')).toHaveLength(2));
    await act(async () => {});
    expect(screen.queryByText('sig-P-2')).toBeNull();
  });
});
