import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link, useLocation } from 'react-router';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { AccountProductsDocument, CreditsBannerDocument } from '../../features/billing/documents.ts';
import { UPGRADE_TEXT } from '../../features/billing/texts.ts';
import { useStripeRedirect } from '../../features/billing/use-stripe-redirect.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatCurrency } from '../../lib/format.ts';

/** SPEC §2 /me/account/upgrade/checkout: the payment for professional status, on Stripe Checkout. */
export function Component() {
  useDocumentTitle('Professional status payment');
  const location = useLocation();
  const applied = (location.state as { applied?: boolean } | null)?.applied === true;
  const [account, reexecuteAccount] = useQuery({ query: CreditsBannerDocument, requestPolicy: 'network-only' });
  const [products, reexecuteProducts] = useQuery({ query: AccountProductsDocument });
  const stripe = useStripeRedirect();
  const price = products.data?.accountProducts.find((p) => p.professional);
  const loading = account.fetching || products.fetching;
  const offered = account.data?.account.cardPayments && price;
  // Either load failing leaves the price unknown: said so (not 'not on sale'), with a new try.
  const failed = products.error ?? account.error;
  const retry = () => {
    reexecuteAccount({ requestPolicy: 'network-only' });
    reexecuteProducts({ requestPolicy: 'network-only' });
  };
  return (
    <section style={{ maxWidth: '36rem' }}>
      <h1 className="h3 mb-3">Professional status payment</h1>
      {applied && <Alert variant="success">{UPGRADE_TEXT.applied}</Alert>}
      {stripe.error && <Alert variant="danger">{stripe.error}</Alert>}
      {failed && !loading && (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto">{errorMessage(failed, 'Could not load the price.')}</span>
          <Button size="sm" variant="outline-danger" onClick={retry}>
            Try again
          </Button>
        </Alert>
      )}
      {loading && <DelayedSpinner />}
      {!loading && !offered && !failed && <Alert variant="secondary">{UPGRADE_TEXT.notOnSale}</Alert>}
      {offered && (
        <Card className="shadow-sm">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              {price.name}
            </Card.Title>
            <p className="fs-4 fw-semibold">{formatCurrency(price.price, price.currency)}</p>
            <p className="text-secondary small">
              You pay on Stripe's page. Professional status starts as soon as Stripe confirms the payment.
            </p>
            <Button
              onClick={() => void stripe.open(price.stripePriceId, { stripePriceId: price.stripePriceId })}
              disabled={stripe.busy !== null}
            >
              {stripe.busy ? 'Opening Stripe…' : 'Pay with card'}
            </Button>
          </Card.Body>
        </Card>
      )}
      <p className="mt-3">
        <Link to="/me/account">Back to Account &amp; Billing</Link>
      </p>
    </section>
  );
}
