import { ADMIN_TEXT } from '@router/shared';
import { useId } from 'react';
import { formatCount } from '../../lib/format.ts';
import type { ReferralCode } from './use-referral-code.ts';

function Notice({ status }: { status: ReferralCode['status'] }) {
  switch (status.kind) {
    case 'found':
      return status.referrer.isActive ? (
        <div className="form-text text-success">
          You get {formatCount(status.referrer.credits)} extra signals once you confirm your email.
        </div>
      ) : (
        <div className="form-text text-warning-emphasis" role="alert">
          {ADMIN_TEXT.deletedReferrer}
        </div>
      );
    case 'unknown':
      return (
        <div className="invalid-feedback d-block" role="alert">
          {ADMIN_TEXT.unknownReferrer}
        </div>
      );
    default:
      return null;
  }
}

/** The optional referral code of a sign-up, with what the server says of it. */
export function ReferralCodeField({ code, setCode, status }: ReferralCode) {
  const id = useId();
  const invalid = status.kind === 'unknown';
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>
        Referral code <span className="text-secondary">(optional)</span>
      </label>
      <input
        id={id}
        className={`form-control${invalid ? ' is-invalid' : ''}`}
        autoComplete="off"
        maxLength={256}
        value={code}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => setCode(event.target.value)}
      />
      <Notice status={status} />
    </div>
  );
}
