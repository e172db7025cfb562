import { useEffect, useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { AccountPaymentSessionDocument } from './documents.ts';
import { leaveFor } from './leave-for.ts';

/**
 * Asks the server for a Stripe session (Checkout for a price, the billing portal without one)
 * and sends the browser there; `busy` names what is being opened, `error` says why it failed.
 * Back from Stripe may show this page again from the back/forward cache, as it was left: busy is
 * then cleared, or every button would stay disabled on 'Opening Stripe…'.
 */
export function useStripeRedirect() {
  const { query } = useCall();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(null);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);
  const open = async (what: string, variables: { stripePriceId?: string; coupon?: string } = {}) => {
    setBusy(what);
    setError(null);
    try {
      const { accountPaymentSession } = await query(AccountPaymentSessionDocument, variables, {
        requestPolicy: 'network-only',
      });
      leaveFor.assign(accountPaymentSession.url);
    } catch (failure) {
      setError(errorMessage(failure, 'Could not reach Stripe. Please try again.'));
      setBusy(null);
    }
  };
  return { open, busy, error };
}
