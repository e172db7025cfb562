import { creditsAlert } from '@router/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { errorMessage } from '../../lib/error-message.ts';
import { resultLabel } from '../activity/filters.ts';
import { CreditsBannerDocument } from '../billing/documents.ts';
import type { HookItem } from './hook-model.ts';
import { type SignalAnswer, sendTestSignal } from './send-test-signal.ts';

type Phase = 'idle' | 'confirming' | 'sending';

/**
 * Sends a signal through the hook as a platform would, and shows the hook's answer. A live hook
 * places a real order and spends a credit, so it asks first; with no signals left it says instead
 * that the hook will refuse it (the balance the credits banner keeps fresh).
 */
export function TestSignal({
  hook,
  makeSample,
  brokerTitle,
}: {
  hook: HookItem;
  /** The platform's message filled with sample values (a fresh {{timenow}} each time). */
  makeSample: () => string;
  brokerTitle: string;
}) {
  const id = useId();
  const [body, setBody] = useState(makeSample);
  const [edited, setEdited] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [answer, setAnswer] = useState<SignalAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [credits] = useQuery({ query: CreditsBannerDocument });
  const account = credits.data?.account;
  const noSignals = !hook.isTest && account !== undefined && creditsAlert(account) === 'exhausted';

  // Another platform's sample replaces the body only while the trader has not edited it.
  useEffect(() => {
    if (!edited) setBody(makeSample());
  }, [makeSample, edited]);
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (phase === 'confirming') confirmRef.current?.focus();
  }, [phase]);

  async function send() {
    setPhase('sending');
    setFailure(null);
    abort.current = new AbortController();
    try {
      setAnswer(await sendTestSignal(hook.shortKey, body, abort.current.signal));
      // A new firing time, so the next test is a new signal rather than a repeat of this one.
      if (!edited) setBody(makeSample());
    } catch (error) {
      if (abort.current.signal.aborted) return;
      setAnswer(null);
      setFailure(errorMessage(error));
    }
    setPhase('idle');
  }

  return (
    <section aria-labelledby={`${id}-title`} className="border-top pt-3 mt-2">
      <h3 id={`${id}-title`} className="h6">
        Send a test signal
      </h3>
      <p className="small text-secondary">
        Posts this body to the webhook the way the platform will, placeholders filled with sample values. Edit it to try
        your own.
        {hook.isTest
          ? ' This is a test webhook: the answer is the order as normalized (test · not sent, status draft), nothing reaches the broker.'
          : ''}
      </p>
      <label htmlFor={`${id}-body`} className="visually-hidden">
        Test signal body
      </label>
      <textarea
        id={`${id}-body`}
        className="form-control font-monospace small mb-2"
        rows={Math.min(8, body.split('\n').length + 1)}
        value={body}
        onChange={(event) => {
          setBody(event.target.value);
          setEdited(true);
        }}
        spellCheck={false}
      />
      {phase === 'confirming' ? (
        <div className="alert alert-danger small" role="alert">
          {noSignals ? (
            <p className="mb-2">
              <strong>{hook.name}</strong> is a live webhook and no signals are left: it refuses this signal (No signals
              left) and nothing reaches {brokerTitle}. <Link to="/me/account">Account &amp; Billing</Link>
            </p>
          ) : (
            <p className="mb-2">
              <strong>{hook.name}</strong> is a live webhook: this signal places a real order at {brokerTitle} and
              spends one signal credit.
            </p>
          )}
          <div className="d-flex flex-wrap gap-2">
            <button ref={confirmRef} type="button" className="btn btn-sm btn-danger" onClick={() => void send()}>
              {noSignals ? 'Send it anyway' : 'Place a real order'}
            </button>
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setPhase('idle')}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={phase === 'sending' || body.trim() === ''}
          onClick={() => (hook.isTest ? void send() : setPhase('confirming'))}
        >
          {phase === 'sending' && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          Send test signal
        </button>
      )}
      <div aria-live="polite" className="mt-2">
        {failure && (
          <div className="alert alert-danger small mb-0" role="alert">
            {failure}
          </div>
        )}
        {answer && <AnswerView answer={answer} />}
      </div>
    </section>
  );
}

function AnswerView({ answer }: { answer: SignalAnswer }) {
  return (
    <div className={`alert small mb-0 ${answer.ok ? 'alert-success' : 'alert-danger'}`}>
      <p className="mb-1">
        <span className="fw-semibold">Answer: {answer.httpStatus}</span> · <span>{resultLabel(answer.status)}</span>
        {answer.message ? <> · {answer.message}</> : null}
      </p>
      <pre className="mb-0 small text-wrap text-break">{answer.body}</pre>
    </div>
  );
}
