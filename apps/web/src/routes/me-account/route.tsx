import { ACCOUNT_TYPE } from '@router/shared';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useSearchParams } from 'react-router';
import { useClient, useQuery } from 'urql';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { AccountSummary } from '../../features/billing/account-summary.tsx';
import { BuyCredits } from '../../features/billing/buy-credits.tsx';
import { CheckoutReturn, noteCheckoutStart } from '../../features/billing/checkout-return.tsx';
import { AccountCreditsDocument, CreditsBannerDocument } from '../../features/billing/documents.ts';
import { LedgerTable } from '../../features/billing/ledger-table.tsx';
import { PaymentsTable } from '../../features/billing/payments-table.tsx';
import { ProfessionalCard } from '../../features/billing/professional-card.tsx';
import { SubscriptionCard } from '../../features/billing/subscription-card.tsx';
import { GRANTED_BY_ADMIN } from '../../features/billing/texts.ts';
import { useStripeRedirect } from '../../features/billing/use-stripe-redirect.ts';
import { useLiveReload } from '../../features/live/live-provider.tsx';
import { useSession } from '../../lib/session.tsx';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';

const PORTAL = 'portal';

/**
 * SPEC §2 Account & Billing: signals left and spent, the subscription card, buying packs and
 * plans on Stripe Checkout (a ?coupon= of the address applies), Manage billing (Stripe's portal),
 * recent payments with their invoices, the professional-status card and the credit history.
 * Without card payments on this server it says how credits are granted instead.
 */
export function Component() {
  useDocumentTitle('Account & Billing');
  const session = useSession();
  const [params] = useSearchParams();
  const coupon = params.get('coupon') ?? undefined;
  const [result, reexecute] = useQuery({ query: AccountCreditsDocument, requestPolicy: 'network-only' });
  // Asked again every 2 s after Checkout: an answer that fails for a moment keeps the page as last
  // read (the plan, what is on sale, the payments) rather than emptying it.
  const account = { ...result, data: useLastLoaded(result.data ?? undefined) };
  const stripe = useStripeRedirect();
  const data = account.data?.account;
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  // Live: each signal spends a credit; Signals left must not lag the low-credit banner above it.
  useLiveReload(refresh);
  const manage = () => void stripe.open(PORTAL);
  // Bumped when a Checkout payment shows: the credit history loads again with its purchase.
  const [ledgerVersion, setLedgerVersion] = useState(0);
  const client = useClient();
  const paymentShown = () => {
    setLedgerVersion((n) => n + 1);
    // The low-credit banner above the page (its answer goes to the banner's own query).
    void client.query(CreditsBannerDocument, {}, { requestPolicy: 'network-only' }).toPromise();
  };
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-4">
        <h1 className="h3 m-0 me-auto">Account &amp; Billing</h1>
        {data?.cardPayments && (
          <Button variant="outline-primary" size="sm" onClick={manage} disabled={stripe.busy !== null}>
            {stripe.busy === PORTAL ? 'Opening Stripe…' : 'Manage billing'}
          </Button>
        )}
      </div>
      <CheckoutReturn account={data} refresh={refresh} onConfirmed={paymentShown} />
      {stripe.error && <Alert variant="danger">{stripe.error}</Alert>}
      <AccountSummary account={account} />
      {data && !data.cardPayments && !data.unlimited && (
        <Alert variant="secondary" className="small">
          {GRANTED_BY_ADMIN}
        </Alert>
      )}
      {data?.cardPayments && (
        <>
          <SubscriptionCard account={data} onManage={manage} busy={stripe.busy !== null} />
          <BuyCredits
            busy={stripe.busy}
            // A plan for professional status alone (no credits) leaves plans with credits on sale.
            hasPlan={data.type === ACCOUNT_TYPE.RECURRING && (data.product?.credits ?? 1) > 0}
            onBuy={(product) => {
              noteCheckoutStart(data);
              void stripe.open(product.stripePriceId, {
                stripePriceId: product.stripePriceId,
                ...(coupon ? { coupon } : {}),
              });
            }}
          />
          <PaymentsTable payments={data.payments} />
        </>
      )}
      {!session.isProfessional && data && (
        <ProfessionalCard
          appliedAt={data.professionalAppliedAt ?? null}
          cardPayments={data.cardPayments}
          proxied={Boolean(session.proxiedUser)}
        />
      )}
      <LedgerTable key={ledgerVersion} />
    </>
  );
}
