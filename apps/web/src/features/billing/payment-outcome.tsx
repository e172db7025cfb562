import type { AccountCreditsQuery } from '../../gql/graphql.ts';
import { formatCurrency } from '../../lib/format.ts';

type Payment = AccountCreditsQuery['account']['payments'][number];

const DISPUTE_TEXT = { open: 'Disputed: under review', won: 'Dispute won', lost: 'Dispute lost' } as const;
const DISPUTE_CLASS = { open: 'text-warning-emphasis', won: 'text-success', lost: 'text-danger' } as const;

/**
 * What became of a payment since: the money refunded (all, or how much), and a dispute of it by the
 * card's bank as it stands (under review, won, lost; its amount when it is not the whole payment).
 * `refunded` counts an open or lost dispute too: what a dispute holds is not told as refunded.
 */
export function PaymentOutcome({ payment }: { payment: Payment }) {
  const { dispute } = payment;
  const held = dispute && dispute.status !== 'won' ? dispute.amount : 0;
  const refunded = Math.max(payment.refunded - held, 0);
  const status = dispute && dispute.status in DISPUTE_TEXT ? (dispute.status as keyof typeof DISPUTE_TEXT) : null;
  const part =
    dispute && dispute.amount < payment.price ? ` (${formatCurrency(dispute.amount, payment.currency)})` : '';
  return (
    <>
      {refunded > 0 && (
        <div className="small text-danger">
          {refunded >= payment.price ? 'Refunded' : `${formatCurrency(refunded, payment.currency)} refunded`}
        </div>
      )}
      {status && (
        <div className={`small ${DISPUTE_CLASS[status]}`}>
          {DISPUTE_TEXT[status]}
          {part}
        </div>
      )}
    </>
  );
}
