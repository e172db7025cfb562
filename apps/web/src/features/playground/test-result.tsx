import { Fragment } from 'react';
import { Link } from 'react-router';
import { useFocusWhenShown } from '../../components/focused-alert.tsx';
import { RepairedNotice } from './repaired-notice.tsx';
import type { ShownOutcome } from './use-order-test.ts';

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

interface TestResultProps {
  outcome: ShownOutcome;
  providerName: string;
  /** Puts the repaired, strict body into the order text. */
  onUseBody?(body: string): void;
}

/** The Test result, after the notice that the text was repaired when it was (the hook would refuse it). */
export function TestResult({ outcome, providerName, onUseBody }: TestResultProps) {
  return (
    <>
      {outcome.strictBody !== undefined && <RepairedNotice body={outcome.strictBody} onUse={onUseBody} />}
      <ResultBox outcome={outcome} providerName={providerName} />
    </>
  );
}

/**
 * The Test result: success box with the returned fields, error box, or warning text. It takes the
 * focus when the Test button, disabled while testing, had it (not from Ctrl+Enter in the order).
 */
function ResultBox({ outcome, providerName }: { outcome: ShownOutcome; providerName: string }) {
  const ref = useFocusWhenShown<HTMLDivElement>({ unlessTyping: true });
  const emoji = (
    <span className="playground-emoji" aria-hidden="true">
      {outcome.emoji}
    </span>
  );
  if (outcome.kind === 'success') {
    return (
      <div
        ref={ref}
        tabIndex={-1}
        className="alert alert-success position-relative mb-0"
        role="status"
        data-testid="test-success"
      >
        {emoji}
        <h3 className="h6 alert-heading">Preview</h3>
        <dl className="row mb-0 small">
          {Object.entries(outcome.fields).map(([name, value]) => (
            <Fragment key={name}>
              <dt className="col-sm-4 col-lg-3 text-break">{name}</dt>
              <dd className="col-sm-8 col-lg-9 text-break">
                {typeof value === 'object' ? <pre className="mb-0 small">{show(value)}</pre> : show(value)}
              </dd>
            </Fragment>
          ))}
        </dl>
      </div>
    );
  }
  if (outcome.kind === 'error') {
    return (
      <div
        ref={ref}
        tabIndex={-1}
        className="alert alert-danger position-relative mb-0"
        role="alert"
        data-testid="test-error"
      >
        {emoji}
        <h3 className="h6 alert-heading">{outcome.name}</h3>
        <p className="mb-0 text-break">{outcome.message}</p>
      </div>
    );
  }
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="alert alert-warning position-relative mb-0"
      role="alert"
      data-testid="test-warning"
    >
      {emoji}
      <p className="mb-0 pe-4">{outcome.message}</p>
      {outcome.connect && (
        <Link to={`/me/connector/${providerName}`} className="alert-link d-inline-block mt-1">
          Go to Brokers &amp; Webhooks
        </Link>
      )}
    </div>
  );
}
