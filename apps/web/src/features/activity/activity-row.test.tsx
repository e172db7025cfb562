import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { orderAction, signinAction } from './activity-fixtures.ts';
import { ActivityRow } from './activity-row.tsx';
import { orderCallOf } from './order-call.ts';
import type { ActionRow } from './use-activity.ts';

const table = (action: ActionRow) =>
  render(
    <table>
      <tbody>
        <ActivityRow action={action} />
      </tbody>
    </table>,
  );

describe('Last actions: order rows (SPEC §2)', () => {
  it('expands an order row from a webhook to request, response and elapsed ms', () => {
    table(orderAction(1, { id: 'o-1', status: 'filled', price: 187.5 }));
    const toggle = screen.getByRole('button', { name: /Webhook hook1 \(paper#PA-1\) called/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const details = screen.getByTestId('order-call');
    expect(within(details).getByText('Request')).toBeTruthy();
    expect(within(details).getByText(/"symbol": "AAPL"/)).toBeTruthy();
    expect(within(details).getByText('Elapsed: 12 ms')).toBeTruthy();
    const response = screen.getByTestId('order-call-response');
    expect(response.textContent).toContain('"status": "filled"');
    expect(response.dataset.tone).toBe('success');
    expect(response.className).toContain('bg-success-subtle');
    // A click anywhere on the row closes it again.
    fireEvent.click(toggle.closest('tr') as HTMLElement);
    expect(screen.queryByTestId('order-call')).toBeNull();
  });

  it("styles a response whose status contains 'Error' as danger", () => {
    table(orderAction(2, { status: 'ValidationError', message: 'No symbol found' }));
    fireEvent.click(screen.getByRole('button', { name: /call failed/ }));
    const response = screen.getByTestId('order-call-response');
    expect(response.dataset.tone).toBe('danger');
    expect(response.className).toContain('bg-danger-subtle');
  });

  it('styles rejected calls as danger, and does not expand other actions', () => {
    expect(orderCallOf('Order', JSON.stringify({ response: { status: 'rejected' } }))?.failed).toBe(true);
    expect(orderCallOf('Order', JSON.stringify({ response: { status: 'accepted' } }))?.failed).toBe(false);
    expect(orderCallOf('Order', JSON.stringify({ hook: { shortKey: 'k' } }))).toBeNull();
    expect(orderCallOf('Signin', JSON.stringify({ request: {} }))).toBeNull();
    table(signinAction(3));
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('keeps a request that is not JSON as text', () => {
    const call = orderCallOf('Order', JSON.stringify({ request: 'buy AAPL', response: { status: 'ValidationError' } }));
    expect(call?.request).toBe('buy AAPL');
    expect(call?.elapsedMs).toBeNull();
  });
});

describe('Last actions: a webhook key in a description', () => {
  it('is an element of its own whose title is the whole key (it truncates, never breaks mid-key)', () => {
    table(orderAction(1, { id: 'o-1', status: 'filled' }));
    const key = screen.getByTitle('hook1');
    expect(key.className).toBe('hook-key');
    expect(key.textContent).toBe('hook1');
    expect(key.parentElement?.textContent).toBe('Webhook hook1 (paper#PA-1) called');
  });
});
