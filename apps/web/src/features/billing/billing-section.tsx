import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';

/** A titled card of Account & Billing (buying, payments, history), with a spinner while it loads. */
export function BillingSection({
  id,
  title,
  busy = false,
  children,
}: {
  id: string;
  title: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby={`${id}-title`} aria-busy={busy}>
      <Card.Header className="bg-body">
        <h2 id={`${id}-title`} className="h6 m-0 d-flex align-items-center gap-2">
          {title}
          {busy && <DelayedSpinner className="d-inline-flex align-items-center" />}
        </h2>
      </Card.Header>
      {children}
    </Card>
  );
}
