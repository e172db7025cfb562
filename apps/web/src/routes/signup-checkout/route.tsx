import { Link, Navigate, useLocation } from 'react-router';
import { PlaceholderScreen } from '../../components/placeholder-screen.tsx';
import { isPriceId } from '../../features/auth/signup-params.ts';

/**
 * SPEC §2 Signup checkout. A price id not starting with price_ skips to success, keeping the
 * query; the card payment form itself comes with billing (a later release).
 */
export function Component() {
  const { search } = useLocation();
  if (!isPriceId(new URLSearchParams(search).get('stripe_price_id'))) {
    return <Navigate to={`/signup/success${search}`} replace />;
  }
  return (
    <PlaceholderScreen title="Payment">
      <p className="text-secondary">Card payment is coming in a later release.</p>
      <Link to={`/signup/success${search}`} className="btn btn-primary">
        Continue
      </Link>
    </PlaceholderScreen>
  );
}
