import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useCall } from '../../lib/call.ts';
import { PasscodeDocument, PasscodeUpdateDocument } from './documents.ts';
import { PasscodeCodeForm } from './passcode-code-form.tsx';
import { passcodeError } from './passcode-error.ts';

export const ENROLL_PATH = '/me/settings/two-factor';

/** Settings' two-factor panel: whether it is on; set it up, or turn it off with a valid code. */
export function TwoFactorPanel() {
  const { mutate } = useCall();
  const [{ data, error, fetching }, refetch] = useQuery({ query: PasscodeDocument, requestPolicy: 'network-only' });
  const [turningOff, setTurningOff] = useState(false);
  const active = data?.userPasscode.isActive;

  if (fetching && !data) return <DelayedSpinner />;
  if (error || active === undefined) {
    return (
      <p className="text-danger" role="alert">
        Cannot load the two-factor status.
      </p>
    );
  }

  async function turnOff(code: string): Promise<string | null> {
    try {
      await mutate(PasscodeUpdateDocument, { secret: '', passcode: code });
      setTurningOff(false);
      refetch({ requestPolicy: 'network-only' });
      return null;
    } catch (failure) {
      return passcodeError(failure);
    }
  }

  if (!active) {
    return (
      <>
        <p>
          <span className="badge text-bg-secondary me-2">Off</span>
          Add a second step to password sign-ins: a code from an authenticator app.
        </p>
        <Link to={ENROLL_PATH} state={{ from: '/me/settings' }} className="btn btn-primary">
          Set up two-factor authentication
        </Link>
      </>
    );
  }
  return (
    <>
      <p>
        <span className="badge text-bg-success me-2">On</span>
        Password sign-ins ask for a code from your authenticator app.
      </p>
      {turningOff ? (
        <PasscodeCodeForm submitLabel="Turn off" variant="outline-danger" onCode={turnOff}>
          <button type="button" className="btn btn-link" onClick={() => setTurningOff(false)}>
            Cancel
          </button>
        </PasscodeCodeForm>
      ) : (
        <button type="button" className="btn btn-outline-danger" onClick={() => setTurningOff(true)}>
          Turn off
        </button>
      )}
    </>
  );
}
