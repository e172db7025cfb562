import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useFocusBack } from '../../components/use-focus-back.ts';
import { useCall } from '../../lib/call.ts';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';
import { PasscodeDocument, PasscodeUpdateDocument, RecoveryCodesCreateDocument } from './documents.ts';
import { passcodeError } from './passcode-error.ts';
import { RecoveryCodeList } from './recovery-code-list.tsx';
import { SecondFactorCodeForm } from './second-factor-code-form.tsx';

export const ENROLL_PATH = '/me/settings/two-factor';

type Asking = 'none' | 'turn-off' | 'new-codes';

/**
 * Settings' two-factor panel: whether it is on; set it up, or (with an authenticator or a
 * recovery code) turn it off or get ten new recovery codes, shown once.
 */
export function TwoFactorPanel() {
  const { mutate } = useCall();
  const [{ data, fetching }, refetch] = useQuery({ query: PasscodeDocument, requestPolicy: 'network-only' });
  const [asking, setAsking] = useState<Asking>('none');
  const [codes, setCodes] = useState<string[] | null>(null);
  // The button that asked for a code takes the focus back when the code form closes.
  const newCodesButton = useFocusBack<HTMLButtonElement>(asking === 'new-codes');
  const turnOffButton = useFocusBack<HTMLButtonElement>(asking === 'turn-off');
  // A reload after a change that fails for a moment keeps the status as last read, and with it the
  // new recovery codes, which are shown only this once.
  const passcode = useLastLoaded(data?.userPasscode);
  const active = passcode?.isActive;

  if (fetching && !passcode) return <DelayedSpinner />;
  if (active === undefined) {
    return (
      <p className="text-danger" role="alert">
        Cannot load the two-factor status.
      </p>
    );
  }

  async function submit(code: string): Promise<string | null> {
    try {
      if (asking === 'turn-off') await mutate(PasscodeUpdateDocument, { secret: '', passcode: code });
      else setCodes((await mutate(RecoveryCodesCreateDocument, { passcode: code })).userRecoveryCodesCreate);
      setAsking('none');
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
  const left = passcode?.recoveryCodesLeft ?? 0;
  return (
    <>
      <p>
        <span className="badge text-bg-success me-2">On</span>
        Password sign-ins ask for a code from your authenticator app.
      </p>
      <p className={left <= 3 ? 'text-danger' : 'text-secondary'}>
        {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
      </p>
      {codes && <RecoveryCodeList codes={codes} />}
      {asking !== 'none' ? (
        <SecondFactorCodeForm
          submitLabel={asking === 'turn-off' ? 'Turn off' : 'Get new codes'}
          variant={asking === 'turn-off' ? 'outline-danger' : 'primary'}
          onCode={submit}
          onCancel={() => setAsking('none')}
        >
          <button type="button" className="btn btn-link" onClick={() => setAsking('none')}>
            Cancel
          </button>
        </SecondFactorCodeForm>
      ) : (
        <div className="d-flex flex-wrap gap-2">
          <button
            ref={newCodesButton}
            type="button"
            className="btn btn-outline-primary"
            onClick={() => {
              setCodes(null);
              setAsking('new-codes');
            }}
          >
            Get new recovery codes
          </button>
          <button
            ref={turnOffButton}
            type="button"
            className="btn btn-outline-danger"
            onClick={() => setAsking('turn-off')}
          >
            Turn off
          </button>
        </div>
      )}
    </>
  );
}
