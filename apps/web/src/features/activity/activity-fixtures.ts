import type { ActionRow } from './use-activity.ts';

const BASE = Date.UTC(2024, 0, 31, 14, 5, 7, 400);

/** An Order action as the hook writes it (SPEC §3 Action metadata). */
export function orderAction(id: number, response: Record<string, unknown>, address = '52.89.214.238'): ActionRow {
  return {
    id,
    code: 'Order',
    address,
    createdAt: BASE - id * 60_000,
    metadata: JSON.stringify({
      hook: { shortKey: `hook${id}`, name: 'Main' },
      providerName: 'paper',
      accountId: 'PA-1',
      request: { symbol: 'AAPL', action: 'buy', quantity: 1 },
      response,
      elapsed: 12,
    }),
    trade: null,
  };
}

export const signinAction = (id: number): ActionRow => ({
  id,
  code: 'Signin',
  address: '10.0.0.1',
  createdAt: BASE - id * 60_000,
  metadata: '{}',
  trade: null,
});

/** `count` sign-ins with ids from `from`, newest first. */
export const page = (from: number, count: number): ActionRow[] =>
  Array.from({ length: count }, (_, index) => signinAction(from + index));

/**
 * getByText's match, and an activity row's description by its whole text (its webhook key is an
 * element of its own).
 */
export const describedAs = (text: string) => (content: string, element: Element | null) =>
  content === text || (element?.classList.contains('activity-description') === true && element.textContent === text);
