import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { UPGRADE_TEXT } from '../../features/billing/texts.ts';
import { useSession } from '../../lib/session.tsx';

const POLL_MS = 2000;
const POLLS = 30;

/**
 * Back from paying for professional status. The page grants nothing: it asks for the user again
 * every 2 s until the Stripe webhook has added the professional group (or a minute passed).
 */
export function Component() {
  useDocumentTitle('Professional status');
  const session = useSession();
  const [polls, setPolls] = useState(0);
  const done = session.isProfessional;
  useEffect(() => {
    if (done || polls >= POLLS) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      void session.reload();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [done, polls, session]);
  return (
    <section style={{ maxWidth: '36rem' }}>
      <h1 className="h3 mb-3">Professional status</h1>
      <Alert variant={done ? 'success' : 'info'} role="status" data-testid="upgrade-status">
        {done ? UPGRADE_TEXT.done : polls >= POLLS ? UPGRADE_TEXT.slow : UPGRADE_TEXT.waiting}
      </Alert>
      {done ? (
        <Link to="/me/settings" className="btn btn-primary">
          Register an application in Settings
        </Link>
      ) : (
        <Link to="/me/account">Back to Account &amp; Billing</Link>
      )}
    </section>
  );
}
