import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useSearchParams } from 'react-router';
import type { AccountCreditsQuery } from '../../gql/graphql.ts';
import { readCheckoutSince, writeCheckoutSince } from '../../lib/storage.ts';
import { CHECKOUT_RETURN } from './texts.ts';

type Account = AccountCreditsQuery['account'];

const POLL_MS = 2000;
const POLLS = 30;
/** Without a note of when the browser left: a payment this recent is the one just made. */
const RECENT_MS = 15 * 60_000;

/** The newest payment's time, noted before leaving for Stripe Checkout. */
export const noteCheckoutStart = (account: Account | undefined) =>
  writeCheckoutSince(Math.max(1, ...(account?.payments ?? []).map((p) => p.createdAt)));

/**
 * Back from Stripe Checkout (?checkout=success|cancel). The success page grants nothing: the
 * account is asked again every 2 s until the payment Stripe's webhook recorded shows (or a minute
 * passed), then the credits are confirmed.
 */
export function CheckoutReturn({
  account,
  refresh,
  onConfirmed,
}: {
  account: Account | undefined;
  refresh: () => void;
  /** The payment showed: what else tells of it (the credit history) is asked again. */
  onConfirmed: () => void;
}) {
  const [params] = useSearchParams();
  const state = params.get('checkout');
  const [polls, setPolls] = useState(0);
  // Read once: the note is cleared on confirmation, and 'recent' must not slide with the clock.
  const [since] = useState(() => readCheckoutSince() ?? Date.now() - RECENT_MS);
  const arrived = (account?.payments ?? []).filter((p) => p.createdAt > since);
  const confirmed = arrived.length > 0;
  // A free trial's invoice of 0 paid nothing and brought no credits: say so, not "credits are in".
  const noCredits = arrived.every((p) => p.credits === 0);
  const trial = noCredits && arrived.every((p) => p.price === 0);

  useEffect(() => {
    if (state !== 'success' || confirmed || polls >= POLLS) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      refresh();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [state, confirmed, polls, refresh]);
  const confirmedOnce = useRef(onConfirmed);
  confirmedOnce.current = onConfirmed;
  useEffect(() => {
    if (!confirmed) return;
    writeCheckoutSince(null);
    if (state === 'success') confirmedOnce.current();
  }, [confirmed, state]);

  if (state === 'cancel') return <Alert variant="secondary">{CHECKOUT_RETURN.cancelled}</Alert>;
  if (state !== 'success') return null;
  return (
    <Alert variant={confirmed ? 'success' : 'info'} role="status" data-testid="checkout-return">
      {confirmed
        ? trial
          ? CHECKOUT_RETURN.trial
          : noCredits
            ? CHECKOUT_RETURN.confirmedNoCredits
            : CHECKOUT_RETURN.confirmed
        : polls >= POLLS
          ? CHECKOUT_RETURN.slow
          : CHECKOUT_RETURN.waiting}
    </Alert>
  );
}
