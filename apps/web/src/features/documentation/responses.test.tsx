// The static Error (400) sample is what a webhook answers an order without a symbol: the order
// language's message, which SPEC §8's sample body gives as 'No symbol found'.
import { ANSWER_STATUSES, normalizeOrder, type Provider, SAMPLE_SUCCESS_RESPONSE } from '@router/orders';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_PROVIDERS } from '../../test/connectors.ts';
import { Responses } from './responses.tsx';

describe('documentation responses', () => {
  it('shows, as the Error (400) sample, the answer a webhook sends for an order with no symbol', () => {
    render(<Responses provider={TEST_PROVIDERS[0] as unknown as Provider} />);
    const sample = screen.getByText('Error (400)').nextElementSibling?.textContent ?? '';
    expect(JSON.parse(sample)).toEqual({ status: 'ValidationError', message: 'No symbol found' });
    for (const body of [
      { action: 'buy', quantity: 1 },
      { symbol: ' ', action: 'buy', quantity: 1 },
    ]) {
      const refused = normalizeOrder(body);
      // The hook answers a refusal as 400 {status: 'ValidationError', message} (signals/submit.ts).
      expect(refused.ok ? undefined : { status: 'ValidationError', message: refused.error.message }).toEqual(
        JSON.parse(sample),
      );
    }
  });

  it('names, under Success (201), every status a 201 answer carries (the hook test checks the answers)', () => {
    render(<Responses provider={TEST_PROVIDERS[0] as unknown as Provider} />);
    const sample = screen.getByText('Success (201)').nextElementSibling;
    expect(JSON.parse(sample?.textContent ?? '')).toEqual(SAMPLE_SUCCESS_RESPONSE);
    const text = sample?.nextElementSibling?.textContent ?? '';
    for (const status of Object.values(ANSWER_STATUSES).flat()) expect(text).toMatch(new RegExp(`\\b${status}\\b`));
    expect(text).toContain('canceled for a cancel');
  });
});
