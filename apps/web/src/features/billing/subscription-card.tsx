import { ACCOUNT_TYPE, paymentPeriodLabel } from '@router/shared';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { AccountCreditsQuery } from '../../gql/graphql.ts';
import { formatCount, formatCurrency, formatDate } from '../../lib/format.ts';
import { useSession } from '../../lib/session.tsx';
import { type PlanTerms, parseMembership, parseRecurring, type Recurring } from './recurring.ts';
import { ACTIVATE_SUBSCRIPTION, FREE_TRIAL, PLAN_WITHOUT_STATUS } from './texts.ts';

type Account = AccountCreditsQuery['account'];

/**
 * SPEC §2 Account & Billing's subscription card: the plan, its Renewal date, or the Cancel date
 * once a cancellation is set; with no end date yet, the activation text and the link. In a free
 * trial, says so, and its Renewal date is the trial's end (the first payment). Manage
 * billing opens Stripe's billing portal (change the card, cancel, invoices).
 */
export function SubscriptionCard({
  account,
  onManage,
  busy,
}: {
  account: Account;
  onManage: () => void;
  busy: boolean;
}) {
  const shown = account.type === ACCOUNT_TYPE.RECURRING ? account.product : null;
  const membership = parseMembership(account.metadata);
  return (
    <>
      {shown && (
        <PlanCard
          id="subscription"
          product={shown}
          recurring={parseRecurring(account.metadata)}
          creditPeriodEnd={account.recurringPeriodEnd ?? null}
          onManage={onManage}
          busy={busy}
        />
      )}
      {/* A plan for professional status alone running beside it: its own dates and payments (shown
          too when the credits plan ended before this one's next event makes it the plan shown). */}
      {membership && (
        <PlanCard
          id="membership"
          product={membership.product}
          recurring={membership.recurring}
          creditPeriodEnd={null}
          onManage={onManage}
          busy={busy}
        />
      )}
    </>
  );
}

function PlanCard({
  id,
  product,
  recurring,
  creditPeriodEnd,
  onManage,
  busy,
}: {
  id: string;
  product: PlanTerms;
  recurring: Recurring;
  creditPeriodEnd: number | null;
  onManage: () => void;
  busy: boolean;
}) {
  const period = paymentPeriodLabel(product.interval);
  // A free trial has paid no period yet: recurringPeriodEnd is none, or an earlier plan's. Its
  // renewal is the trial's end, the first payment.
  const trial = recurring.status === 'trialing';
  // The plan's own renewal as the server projected it from Stripe; recurringPeriodEnd (the credit
  // period) is none for a plan that gives no credits, or an earlier plan's.
  const renewal = recurring.periodEnd ?? creditPeriodEnd;
  // It sells professional status the user no longer holds (not yet, in a trial: the first payment gives it).
  const { isProfessional } = useSession();
  const withoutStatus = product.professional === true && !trial && !isProfessional;
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby={`${id}-title`} data-testid={`${id}-card`}>
      <Card.Body>
        <Card.Title as="h2" id={`${id}-title`} className="h6">
          Subscription: {product.name}
        </Card.Title>
        <p className="mb-2" data-testid="subscription-terms">
          {/* A plan that gives no credits (professional status only) sells no signals: no "0 signals". */}
          {product.credits > 0 && `${formatCount(product.credits)} signals ${period ?? ''} · `}
          {formatCurrency(product.price, product.currency)} {period ?? ''}
        </p>
        {trial && (
          <p className="mb-2" data-testid="subscription-trial">
            {recurring.trialEnd !== null
              ? `${FREE_TRIAL}: nothing is charged until ${formatDate(recurring.trialEnd * 1000)}.`
              : `${FREE_TRIAL}: nothing is charged until it ends.`}
          </p>
        )}
        {recurring.cancelAt !== null ? (
          <p className="mb-2" data-testid="subscription-date">
            Cancel date: {formatDate(recurring.cancelAt * 1000)}
          </p>
        ) : trial ? (
          recurring.trialEnd !== null && (
            <p className="mb-2" data-testid="subscription-date">
              Renewal date: {formatDate(recurring.trialEnd * 1000)}
            </p>
          )
        ) : renewal !== null ? (
          <p className="mb-2" data-testid="subscription-date">
            Renewal date: {formatDate(renewal * 1000)}
          </p>
        ) : (
          <p className="mb-2">{ACTIVATE_SUBSCRIPTION}</p>
        )}
        {withoutStatus && (
          <Alert variant="warning" className="small py-2" data-testid="subscription-without-status">
            {PLAN_WITHOUT_STATUS}
          </Alert>
        )}
        {recurring.paymentFailed && (
          <Alert variant="warning" className="small py-2">
            {/* Stripe's retries over (no next attempt), it does not try again: only paying does. */}
            {recurring.paymentFailed.nextAttempt !== null
              ? `The last payment of your plan failed; Stripe will try again on ${formatDate(recurring.paymentFailed.nextAttempt * 1000)}.`
              : 'The last payment of your plan failed, and Stripe will not try again.'}{' '}
            {recurring.paymentFailed.url ? (
              <a href={recurring.paymentFailed.url} className="alert-link">
                Pay the invoice now
              </a>
            ) : (
              'Update your card with Manage billing.'
            )}
          </Alert>
        )}
        <Button variant="link" className="p-0" onClick={onManage} disabled={busy}>
          Manage billing
        </Button>
      </Card.Body>
    </Card>
  );
}
