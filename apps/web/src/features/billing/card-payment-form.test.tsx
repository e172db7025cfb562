import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Confirmed, PaymentConfirmForm } from './card-payment-form.tsx';

describe('the card form at checkout', () => {
  it("a refused payment's message takes the focus Pay dropped, again at the next refusal", async () => {
    const declined: Confirmed = { type: 'error', error: { message: 'Your card was declined.' } };
    let confirms = 0;
    render(
      <PaymentConfirmForm
        label="Pay"
        confirm={async () => {
          confirms += 1;
          return declined;
        }}
      >
        <input aria-label="Card number" />
      </PaymentConfirmForm>,
    );
    const pay = screen.getByRole('button', { name: 'Pay' });
    for (const attempt of [1, 2]) {
      pay.focus();
      fireEvent.click(pay);
      await waitFor(() => expect(confirms).toBe(attempt));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe('Your card was declined.');
      await waitFor(() => expect(document.activeElement).toBe(alert));
    }
  });
});
