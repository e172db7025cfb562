import { CheckoutElementsProvider, PaymentElement, useCheckoutElements } from '@stripe/react-stripe-js/checkout';
import type { Stripe } from '@stripe/stripe-js';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { FocusedAlert, useFailure } from '../../components/focused-alert.tsx';
import { SubmitButton } from '../auth/auth-card.tsx';
import { stripeJs } from './stripe-js.ts';
import { CARD_FORM_UNAVAILABLE } from './texts.ts';

function PayForm({ label }: { label: string }) {
  const result = useCheckoutElements();
  if (result.type === 'loading') return <DelayedSpinner />;
  if (result.type === 'error') return <Alert variant="danger">{result.error.message}</Alert>;
  const { checkout } = result;
  return (
    <PaymentConfirmForm label={label} confirm={() => checkout.confirm()}>
      <PaymentElement />
    </PaymentConfirmForm>
  );
}

/** What confirming answers: on success Stripe sends the browser on, so only a refusal is shown. */
export type Confirmed = { type: 'success' } | { type: 'error'; error: { message: string } };

/**
 * The card form's submission: Pay is disabled while Stripe confirms, which drops the focus to the
 * page, so a refusal (a declined card) takes the focus, read out, at each attempt.
 */
export function PaymentConfirmForm({
  label,
  confirm,
  children,
}: {
  label: string;
  confirm: () => Promise<Confirmed>;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useFailure<string>();
  const pay = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    // On success Stripe sends the browser to the session's return URL (/signup/success).
    const confirmed = await confirm();
    if (confirmed.type === 'error') setError(confirmed.error.message);
    setBusy(false);
  };
  return (
    <form onSubmit={(event) => void pay(event)}>
      <div className="mb-3">{children}</div>
      {error && (
        <FocusedAlert key={error.attempt} className="py-2">
          {error.value}
        </FocusedAlert>
      )}
      <SubmitButton busy={busy}>{label}</SubmitButton>
    </form>
  );
}

/**
 * Stripe's own card form (the Payment Element of a Checkout session with ui_mode `elements`):
 * card data goes from the browser to Stripe, never through our server. When Stripe.js cannot be
 * loaded, a clear message instead.
 */
export function CardPaymentForm({
  publishableKey,
  clientSecret,
  label,
}: {
  publishableKey: string | null;
  clientSecret: string;
  label: string;
}) {
  const [stripe, setStripe] = useState<Stripe | null | undefined>(undefined);
  useEffect(() => {
    if (!publishableKey) {
      setStripe(null);
      return;
    }
    let current = true;
    void stripeJs.load(publishableKey).then((loaded) => {
      if (current) setStripe(loaded);
    });
    return () => {
      current = false;
    };
  }, [publishableKey]);
  if (stripe === undefined) return <DelayedSpinner />;
  if (stripe === null) {
    return (
      <Alert variant="warning" data-testid="card-form-unavailable">
        {CARD_FORM_UNAVAILABLE}
      </Alert>
    );
  }
  return (
    <CheckoutElementsProvider stripe={stripe} options={{ clientSecret }}>
      <PayForm label={label} />
    </CheckoutElementsProvider>
  );
}
