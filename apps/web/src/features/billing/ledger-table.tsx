import { creditCauseLabel } from '@router/shared';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { MoreFooter } from '../../components/more-footer.tsx';
import { formatCount, formatDateTime, formatIsoSeconds } from '../../lib/format.ts';
import { useLedger } from './use-ledger.ts';

/** +12 · −1 (a real minus sign). */
export const formatChange = (credits: number): string =>
  credits > 0 ? `+${formatCount(credits)}` : credits < 0 ? `−${formatCount(-credits)}` : '0';

/** Every change of the signal credits (issue 14: the ledger), newest first, 'More' for older ones. */
export function LedgerTable() {
  const ledger = useLedger();
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="credit-history-title" aria-busy={ledger.loading}>
      <Card.Header className="bg-body">
        <h2 id="credit-history-title" className="h6 m-0 d-flex align-items-center gap-2">
          Credit history
          {ledger.loading && <DelayedSpinner className="d-inline-flex align-items-center" />}
        </h2>
      </Card.Header>
      <Table responsive hover size="sm" className="mb-0 align-middle">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Change</th>
            <th scope="col">Balance</th>
            <th scope="col">Cause</th>
          </tr>
        </thead>
        <tbody>
          {ledger.entries.map((entry) => (
            <tr key={entry.id}>
              <td title={formatIsoSeconds(entry.createdAt)}>{formatDateTime(entry.createdAt)}</td>
              <td className={entry.credits < 0 ? 'text-danger' : 'text-success'}>{formatChange(entry.credits)}</td>
              <td>{formatCount(entry.balanceAfter)}</td>
              <td>{creditCauseLabel(entry.cause)}</td>
            </tr>
          ))}
          {ledger.loaded && ledger.entries.length === 0 && (
            <tr>
              <td colSpan={4} className="text-center text-secondary py-4">
                {ledger.failed ? 'Could not load the credit history.' : 'No credit changes yet'}
              </td>
            </tr>
          )}
        </tbody>
      </Table>
      {ledger.hasMore && <MoreFooter loading={ledger.loading} onMore={ledger.more} />}
    </Card>
  );
}
