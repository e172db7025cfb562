import Alert from 'react-bootstrap/Alert';
import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { AccountSummary } from '../../features/billing/account-summary.tsx';
import { AccountCreditsDocument } from '../../features/billing/documents.ts';
import { LedgerTable } from '../../features/billing/ledger-table.tsx';
import { GRANTED_BY_ADMIN } from '../../features/billing/texts.ts';

/**
 * SPEC §2 Account & Billing: signals left, signals spent in total, and the credit history.
 * The subscription card, the recent payments table (invoices) and buying credits belong between
 * the figures and the history; they come with card payments (issue 14, Stripe).
 */
export function Component() {
  useDocumentTitle('Account & Billing');
  const [account] = useQuery({ query: AccountCreditsDocument, requestPolicy: 'network-only' });
  const data = account.data?.account;
  return (
    <>
      <h1 className="h3 mb-4">Account &amp; Billing</h1>
      <AccountSummary account={account} />
      {data && !data.cardPayments && !data.unlimited && (
        <Alert variant="secondary" className="small">
          {GRANTED_BY_ADMIN}
        </Alert>
      )}
      <LedgerTable />
    </>
  );
}
