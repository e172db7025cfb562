import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { MultifactorForm } from '../../features/auth/multifactor-form.tsx';
import { SecondFactorSwitch } from '../../features/auth/second-factor-switch.tsx';
import { readIdentityToken } from '../../lib/storage.ts';

/**
 * SPEC §2 Second factor: only after a password sign-in that asked for it; else back to /signin.
 * A recovery code may stand in for the authenticator's code.
 */
export function Component() {
  const location = useLocation();
  // Read once: the token is cleared when the code succeeds, and the screen stays until it moves on.
  const [identity] = useState(readIdentityToken);
  const [recovery, setRecovery] = useState(false);
  if (!identity) return <Navigate to={`/signin${location.search}`} replace state={location.state} />;
  return (
    <AuthCard
      title="Two-factor verification"
      footer={
        <Link to={`/signin${location.search}`} state={location.state}>
          Back to sign in
        </Link>
      }
    >
      <MultifactorForm key={recovery ? 'recovery' : 'passcode'} recovery={recovery} />
      <SecondFactorSwitch recovery={recovery} onChange={setRecovery} />
    </AuthCard>
  );
}
