import { AUDIT_PAGE_SIZE, auditActionLabel } from '@router/shared';
import { useCallback } from 'react';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { useClient } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { MoreFooter } from '../../components/more-footer.tsx';
import { formatDateTime, formatIsoSeconds } from '../../lib/format.ts';
import { useTimePages } from '../../lib/use-time-pages.ts';
import { AdminAuditLogDocument } from './documents.ts';

/** The details JSON as `key: value` pairs, short enough for a table cell. */
export function describeDetails(details: string): string {
  try {
    const parsed: unknown = JSON.parse(details);
    if (typeof parsed !== 'object' || parsed === null) return details;
    return Object.entries(parsed)
      .filter(([key, value]) => key !== 'requestId' && value !== null)
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(', ');
  } catch {
    return details;
  }
}

/** What administrators did (issue 15), newest first, 'More' for older entries. */
export function AuditLogPanel() {
  const client = useClient();
  const fetchPage = useCallback(
    async (createdAtFrom?: number) => {
      const result = await client
        .query(AdminAuditLogDocument, createdAtFrom === undefined ? {} : { createdAtFrom }, {
          requestPolicy: 'network-only',
        })
        .toPromise();
      if (!result.data) console.warn('Audit log: load failed', result.error?.message);
      return result.data?.adminAuditLog ?? null;
    },
    [client],
  );
  const log = useTimePages(fetchPage, AUDIT_PAGE_SIZE);

  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="audit-log-title" aria-busy={log.loading}>
      <Card.Header className="bg-body">
        <h2 id="audit-log-title" className="h5 m-0 d-flex align-items-center gap-2">
          Audit log
          {log.loading && <DelayedSpinner className="d-inline-flex align-items-center" />}
        </h2>
      </Card.Header>
      <Table responsive hover size="sm" className="mb-0 align-middle card-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Administrator</th>
            <th scope="col">User</th>
            <th scope="col">Action</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {log.rows.map((entry) => (
            <tr key={entry.id}>
              <td className="text-nowrap" title={formatIsoSeconds(entry.createdAt)}>
                {formatDateTime(entry.createdAt)}
              </td>
              <td>{entry.adminEmail}</td>
              <td>{entry.targetEmail ?? '-'}</td>
              <td>{auditActionLabel(entry.action)}</td>
              <td className="small text-break">{describeDetails(entry.details)}</td>
            </tr>
          ))}
          {log.loaded && log.rows.length === 0 && (
            <tr>
              <td colSpan={5} className="text-center text-secondary py-4">
                {log.failed ? 'Could not load the audit log.' : 'No administrator actions yet'}
              </td>
            </tr>
          )}
        </tbody>
      </Table>
      {log.hasMore && <MoreFooter loading={log.loading} onMore={log.more} />}
    </Card>
  );
}
