import { creditsAlert } from '@router/shared';
import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useLocation } from 'react-router';
import { useQuery } from 'urql';
import { formatCount } from '../../lib/format.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import { CreditsBannerDocument } from './documents.ts';
import { GRANTED_BY_ADMIN } from './texts.ts';

/**
 * On every signed-in screen: a warning when signals are running low (≤ 20 % of the last grant)
 * or out, what that means for live webhooks, and the way out. Asked again on each navigation and
 * whenever the server tells of new activity, since signals spend credits behind the screen's
 * back. Nothing with unlimited credits.
 */
export function CreditsBanner() {
  const { pathname } = useLocation();
  const [result, reexecute] = useQuery({ query: CreditsBannerDocument, requestPolicy: 'network-only' });
  const shownFor = useRef(pathname);
  useEffect(() => {
    if (shownFor.current === pathname) return;
    shownFor.current = pathname;
    reexecute({ requestPolicy: 'network-only' });
  }, [pathname, reexecute]);
  useLiveReload(() => reexecute({ requestPolicy: 'network-only' }));

  const account = result.data?.account;
  const alert = account ? creditsAlert(account) : null;
  if (!account || !alert) return null;
  const exhausted = alert === 'exhausted';
  return (
    <Alert
      variant={exhausted ? 'danger' : 'warning'}
      className="mb-0 rounded-0 border-0 border-bottom small"
      role="status"
      data-testid="credits-banner"
    >
      <strong>
        {exhausted
          ? 'No signals left.'
          : `Only ${formatCount(account.balance)} ${account.balance === 1 ? 'signal' : 'signals'} left.`}
      </strong>{' '}
      {exhausted
        ? 'Live webhooks refuse signals until credits are added (test webhooks keep working).'
        : 'When they run out, live webhooks refuse signals.'}{' '}
      {account.cardPayments ? (
        <Link to="/me/account" className="alert-link">
          Add credits on Account &amp; Billing
        </Link>
      ) : (
        <>
          {GRANTED_BY_ADMIN}{' '}
          <Link to="/me/account" className="alert-link">
            See your credits
          </Link>
        </>
      )}
    </Alert>
  );
}
