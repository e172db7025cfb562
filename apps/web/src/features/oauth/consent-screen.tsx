import type { ConsentDetails } from '@router/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useSession } from '../../lib/session.tsx';
import { AuthCard, FormAlert } from '../auth/auth-card.tsx';
import { ConsentForm } from './consent-form.tsx';
import { useConsentDetails } from './use-consent-details.ts';

/** The query of a consent screen the provider sent the browser to (it always names `uid`). */
export const interactionUid = (search: string): string | null => new URLSearchParams(search).get('uid');

/** The path a signed-out user comes back to after signing in (SPEC §2: /signin with a redirect). */
export const signinFor = (pathname: string, search: string): string =>
  `/signin?${new URLSearchParams({ redirect: `${pathname}${search}` })}`;

/**
 * The frame of both consent variants: the interaction's details, then `signedIn` (the grant
 * form, given a session token) or `signedOut` (the legacy variant's choices).
 */
export function ConsentScreen({
  uid,
  search,
  sessionToken,
  signedOut,
}: {
  uid: string;
  search: string;
  sessionToken: string | null;
  signedOut?: (details: ConsentDetails) => ReactNode;
}) {
  const state = useConsentDetails(uid, sessionToken);
  const account = useSession().user?.email ?? null;
  if (state.status === 'loading') return <DelayedSpinner />;
  if (state.status === 'failed') {
    return (
      <AuthCard title="Authorization">
        <FormAlert>{state.message}</FormAlert>
        <Link to="/">Back to Signal Router</Link>
      </AuthCard>
    );
  }
  const { details } = state;
  return (
    <AuthCard title={`Connect ${details.client.name}`}>
      {sessionToken && details.token ? (
        <ConsentForm details={details} search={search} sessionToken={sessionToken} account={account} />
      ) : (
        signedOut?.(details)
      )}
    </AuthCard>
  );
}
