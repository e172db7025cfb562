import { useLocation } from 'react-router';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { safePath } from '../../features/auth/redirects.ts';
import { TwoFactorEnroll } from '../../features/user/two-factor-enroll.tsx';
import { fromOf, HOME } from '../../lib/access.ts';

/**
 * SPEC §2 Second-factor enrollment (its route is not given by SPEC: /me/settings/two-factor).
 * Its links lead back to the originating page (router state `from`, or `?from=`), else /me.
 */
export function Component() {
  useDocumentTitle('Two-factor authentication');
  const location = useLocation();
  const next = safePath(fromOf(location.state) ?? new URLSearchParams(location.search).get('from')) ?? HOME;
  return (
    <section style={{ maxWidth: '40rem' }}>
      <h1 className="h3 mb-3">Two-factor authentication</h1>
      <p className="text-secondary">
        Protect your account with a second step at sign-in: a 6-digit code from an authenticator app on your phone.
      </p>
      <TwoFactorEnroll next={next} />
    </section>
  );
}
