import { isStripePriceId } from '@router/shared';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { CardPaymentForm } from '../../features/billing/card-payment-form.tsx';
import { AccountSignupPaymentSessionDocument } from '../../features/billing/documents.ts';
import type { AccountSignupPaymentSessionQuery } from '../../gql/graphql.ts';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatCurrency } from '../../lib/format.ts';

type Session = AccountSignupPaymentSessionQuery['accountSignupPaymentSession'];
type State = { kind: 'loading' } | { kind: 'ready'; session: Session } | { kind: 'discount'; message: string };

const DISCOUNT_FIELDS = new Set(['coupon', 'promotionCode']);

/**
 * SPEC §2 Signup checkout: the card form (Stripe's Payment Element) with the total and the
 * description, for the price and email of the sign-up (stripe_price_id, stripe_email). A price id
 * not starting with price_, or a session that cannot be made, goes to /signup/success keeping the
 * query; an unknown or expired coupon or promotion code is named, with a way on without it.
 */
export function Component() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { query } = useCall();
  const params = new URLSearchParams(search);
  const priceId = params.get('stripe_price_id');
  const email = params.get('stripe_email') ?? '';
  const coupon = params.get('coupon');
  const [withoutDiscount, setWithoutDiscount] = useState(false);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const success = `/signup/success${search}`;

  useEffect(() => {
    if (!isStripePriceId(priceId)) return;
    let current = true;
    setState({ kind: 'loading' });
    const origin = window.location.origin;
    query(
      AccountSignupPaymentSessionDocument,
      {
        email,
        stripePriceId: priceId,
        successUrl: `${origin}${success}`,
        cancelUrl: `${origin}/signup${search}`,
        ...(coupon && !withoutDiscount ? { coupon } : {}),
        ...(withoutDiscount ? { promotionCode: '' } : {}),
      },
      { requestPolicy: 'network-only' },
    ).then(
      ({ accountSignupPaymentSession }) => current && setState({ kind: 'ready', session: accountSignupPaymentSession }),
      (error: unknown) => {
        if (!current) return;
        const field = (error as { extensions?: { field?: unknown } }).extensions?.field;
        if (typeof field === 'string' && DISCOUNT_FIELDS.has(field)) {
          setState({ kind: 'discount', message: errorMessage(error) });
        } else {
          void navigate(success, { replace: true });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [priceId, email, coupon, withoutDiscount, search, success, query, navigate]);

  if (!isStripePriceId(priceId)) return <Navigate to={success} replace />;
  return (
    <AuthCard title="Payment">
      {state.kind === 'loading' && <DelayedSpinner />}
      {state.kind === 'discount' && (
        <>
          <Alert variant="warning">{state.message}</Alert>
          <button type="button" className="btn btn-primary w-100" onClick={() => setWithoutDiscount(true)}>
            Continue without the code
          </button>
        </>
      )}
      {state.kind === 'ready' && (
        <>
          <p className="mb-1">{state.session.description}</p>
          <p className="fs-4 fw-semibold" data-testid="checkout-total">
            Total: {formatCurrency(state.session.total, state.session.currency)}
          </p>
          <CardPaymentForm
            publishableKey={state.session.publishableKey ?? null}
            clientSecret={state.session.clientSecret}
            label={`Pay ${formatCurrency(state.session.total, state.session.currency)}`}
          />
        </>
      )}
      <p className="text-center small mt-3 mb-0">
        <Link to={success}>Skip for now</Link>
      </p>
    </AuthCard>
  );
}
