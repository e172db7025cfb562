import { creditCauseLabel } from '@router/shared';
import Table from 'react-bootstrap/Table';
import { MoreFooter } from '../../components/more-footer.tsx';
import { formatCount, formatDateTime, formatIsoSeconds } from '../../lib/format.ts';
import { BillingSection } from './billing-section.tsx';
import { useLedger } from './use-ledger.ts';

/** +12 · −1 (a real minus sign). */
export const formatChange = (credits: number): string =>
  credits > 0 ? `+${formatCount(credits)}` : credits < 0 ? `−${formatCount(-credits)}` : '0';

/** Every change of the signal credits (issue 14: the ledger), newest first, 'More' for older ones. */
export function LedgerTable() {
  const ledger = useLedger();
  return (
    <BillingSection id="credit-history" title="Credit history" busy={ledger.loading}>
      <Table responsive hover size="sm" className="mb-0 align-middle card-table">
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
              <td>
                {creditCauseLabel(entry.cause, entry.dispute === true)}
                {/* What the cause does not say: a refund of 0 gave back credits that had lapsed. */}
                {entry.note && <div className="small text-secondary">{entry.note}</div>}
              </td>
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
    </BillingSection>
  );
}
