import { paymentPeriodLabel } from '@router/shared';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import type { AccountCreditsQuery } from '../../gql/graphql.ts';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatCount, formatCurrency, formatDate } from '../../lib/format.ts';
import { BillingSection } from './billing-section.tsx';
import { AccountInvoiceDocument } from './documents.ts';
import { leaveFor } from './leave-for.ts';
import { PaymentOutcome } from './payment-outcome.tsx';

type Payment = AccountCreditsQuery['account']['payments'][number];

/**
 * SPEC §2 recent payments: date, what was bought, credits, the amount (in its own currency; a plan's
 * payment says 'per month'; a refunded or disputed one says so: PaymentOutcome), and the invoice PDF
 * through accountInvoice.
 */
export function PaymentsTable({ payments }: { payments: Payment[] }) {
  const { query } = useCall();
  const [opening, setOpening] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (id: string) => {
    setOpening(id);
    setError(null);
    try {
      const { accountInvoice } = await query(AccountInvoiceDocument, { id }, { requestPolicy: 'network-only' });
      leaveFor.assign(accountInvoice.invoicePdf);
    } catch (failure) {
      setError(errorMessage(failure, 'Could not open the invoice.'));
    } finally {
      setOpening(null);
    }
  };
  return (
    <BillingSection id="payments" title="Recent payments">
      {error && <FocusedAlert className="m-3 mb-0">{error}</FocusedAlert>}
      <Table responsive hover size="sm" className="mb-0 align-middle card-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Description</th>
            <th scope="col">Signals</th>
            <th scope="col">Amount</th>
            <th scope="col">Invoice</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => {
            const period = paymentPeriodLabel(payment.interval);
            return (
              <tr key={`${payment.createdAt}-${payment.stripeInvoiceId ?? payment.description}`}>
                <td>{formatDate(payment.createdAt)}</td>
                <td>{payment.description}</td>
                <td>{formatCount(payment.credits)}</td>
                <td>
                  {formatCurrency(payment.price, payment.currency)}
                  {period && <span className="text-secondary"> {period}</span>}
                  <PaymentOutcome payment={payment} />
                </td>
                <td>
                  {payment.stripeInvoiceId ? (
                    <Button
                      variant="link"
                      size="sm"
                      className="p-0"
                      disabled={opening !== null}
                      onClick={() => void download(payment.stripeInvoiceId as string)}
                    >
                      {opening === payment.stripeInvoiceId ? 'Opening…' : 'Download PDF'}
                    </Button>
                  ) : (
                    <span className="text-secondary">–</span>
                  )}
                </td>
              </tr>
            );
          })}
          {payments.length === 0 && (
            <tr>
              <td colSpan={5} className="text-center text-secondary py-4">
                No payments yet
              </td>
            </tr>
          )}
        </tbody>
      </Table>
    </BillingSection>
  );
}
