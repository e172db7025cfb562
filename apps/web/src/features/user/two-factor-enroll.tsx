import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useCall } from '../../lib/call.ts';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';
import { PasscodeDocument, PasscodeUpdateDocument } from './documents.ts';
import { PasscodeCodeForm } from './passcode-code-form.tsx';
import { passcodeError } from './passcode-error.ts';
import { RecoveryCodeList } from './recovery-code-list.tsx';

/** SPEC §9: error-correction level L, size 100. */
export const QR_LEVEL = 'L';
export const QR_SIZE = 100;

/**
 * SPEC §2 Second-factor enrollment: a QR code of the otpauth URI (and its secret for typing
 * in), activated by one valid code, which answers ten recovery codes shown this once; 'No
 * thank you' and 'Skip it' lead on to `next`.
 */
export function TwoFactorEnroll({ next }: { next: string }) {
  const { mutate } = useCall();
  const [{ data, fetching }, refetch] = useQuery({ query: PasscodeDocument, requestPolicy: 'network-only' });
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // The activation answers a Passcode, so the setup is asked again: if that fails for a moment,
  // what was read stays, and with it the recovery codes, which are shown only this once.
  const passcode = useLastLoaded(data?.userPasscode);

  if (fetching && !passcode) return <DelayedSpinner />;
  if (!passcode) {
    return (
      <div className="alert alert-danger" role="alert">
        Cannot load your two-factor setup.{' '}
        <button type="button" className="btn btn-link alert-link p-0 align-baseline" onClick={() => refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (recoveryCodes || passcode.isActive) {
    return (
      <>
        <div className="alert alert-success" role="status">
          Two-factor authentication is on. Sign-ins with your password will ask for a code from your app.
        </div>
        {recoveryCodes && <RecoveryCodeList codes={recoveryCodes} />}
        <Link to={next} className="btn btn-primary">
          Continue
        </Link>
      </>
    );
  }

  async function activate(code: string): Promise<string | null> {
    try {
      const { userPasscodeUpdate } = await mutate(PasscodeUpdateDocument, {
        secret: passcode?.secret ?? '',
        passcode: code,
      });
      setRecoveryCodes(userPasscodeUpdate.recoveryCodes);
      return null;
    } catch (failure) {
      return passcodeError(failure);
    }
  }

  return (
    <>
      <ol className="ps-3">
        <li className="mb-3">
          <p className="mb-2">Scan this code with an authenticator app (Google Authenticator, 1Password, Authy…):</p>
          <div className="mb-2">
            <div className="p-2 bg-white d-inline-block border rounded">
              <QRCodeSVG value={passcode.uri} level={QR_LEVEL} size={QR_SIZE} title="Two-factor setup QR code" />
            </div>
          </div>
          <div className="small text-secondary">
            Can't scan it? Enter this key instead:{' '}
            <code className="user-select-all text-break" data-testid="passcode-secret">
              {passcode.secret}
            </code>
          </div>
        </li>
        <li>Enter the 6-digit code the app shows:</li>
      </ol>
      <PasscodeCodeForm submitLabel="Activate" onCode={activate}>
        <Link to={next}>No thank you</Link>
      </PasscodeCodeForm>
      <div className="mt-4 small">
        <Link to={next} className="link-secondary">
          Skip it
        </Link>
      </div>
    </>
  );
}
