import { ACCOUNT_TYPE, paymentPeriodLabel } from '@router/shared';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useQuery } from 'urql';
import type { AccountProductsQuery } from '../../gql/graphql.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatCount, formatCurrency } from '../../lib/format.ts';
import { BillingSection } from './billing-section.tsx';
import { AccountProductsDocument } from './documents.ts';

export type Product = AccountProductsQuery['accountProducts'][number];

function ProductCard({
  product,
  onBuy,
  busy,
  disabled,
}: {
  product: Product;
  onBuy: () => void;
  busy: boolean;
  disabled: boolean;
}) {
  const period = paymentPeriodLabel(product.interval);
  return (
    <Card className="h-100 shadow-sm" data-testid={`product-${product.stripePriceId}`}>
      <Card.Body className="d-flex flex-column">
        <Card.Title as="h3" className="h6">
          {product.name}
        </Card.Title>
        <p className="mb-1">
          {formatCount(product.credits)} signals{period ? ` ${period}` : ''}
        </p>
        <p className="fs-5 fw-semibold mb-3">
          {formatCurrency(product.price, product.currency)}
          {period && <span className="fs-6 fw-normal text-secondary"> {period}</span>}
        </p>
        <Button className="mt-auto" onClick={onBuy} disabled={disabled}>
          {busy ? 'Opening Stripe…' : product.type === ACCOUNT_TYPE.RECURRING ? 'Subscribe' : 'Buy'}
        </Button>
      </Card.Body>
    </Card>
  );
}

/**
 * Buying credits (issue 14): the packs and monthly plans on sale in Stripe, each bought on
 * Stripe's Checkout page. Credits arrive when Stripe confirms the payment (webhook).
 */
export function BuyCredits({
  onBuy,
  busy,
  hasPlan,
}: {
  onBuy: (product: Product) => void;
  busy: string | null;
  hasPlan: boolean;
}) {
  const [result, reexecute] = useQuery({ query: AccountProductsDocument });
  const products = (result.data?.accountProducts ?? []).filter((p) => !p.professional);
  const packs = products.filter((p) => p.type !== ACCOUNT_TYPE.RECURRING);
  const plans = hasPlan ? [] : products.filter((p) => p.type === ACCOUNT_TYPE.RECURRING);
  return (
    <BillingSection id="buy" title="Buy signals" busy={result.fetching}>
      <Card.Body>
        {result.error && !result.fetching && (
          <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
            <span className="me-auto">{errorMessage(result.error, 'Could not load what is on sale.')}</span>
            {/* The answer was an error, kept in the cache: only a new request can bring what is on sale. */}
            <Button size="sm" variant="outline-danger" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
              Try again
            </Button>
          </Alert>
        )}
        {result.data && products.length === 0 && <p className="text-secondary mb-0">Nothing is on sale right now.</p>}
        {[
          { title: 'One-time packs (they never expire)', items: packs },
          { title: 'Monthly plans (unused signals lapse at renewal)', items: plans },
        ]
          .filter((group) => group.items.length > 0)
          .map((group) => (
            <div key={group.title} className="mb-3">
              <h3 className="h6 text-secondary">{group.title}</h3>
              <Row xs={1} sm={2} lg={3} className="g-3">
                {group.items.map((product) => (
                  <Col key={product.stripePriceId}>
                    <ProductCard
                      product={product}
                      onBuy={() => onBuy(product)}
                      busy={busy === product.stripePriceId}
                      disabled={busy !== null}
                    />
                  </Col>
                ))}
              </Row>
            </div>
          ))}
      </Card.Body>
    </BillingSection>
  );
}
