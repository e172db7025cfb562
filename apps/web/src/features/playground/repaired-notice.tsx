import { CopyButton } from '../../components/copy-button.tsx';

/**
 * Test sent a repaired text (SPEC §5: single quotes, trailing commas, comments…), which the webhook,
 * parsing strictly, refuses as typed. Says so, and shows the strict body to paste into the alert.
 */
export function RepairedNotice({ body, onUse }: { body: string; onUse?(body: string): void }) {
  return (
    <div className="alert alert-warning mb-2" role="alert" data-testid="test-repaired">
      <p className="mb-2">
        Your text is not strict JSON: it was repaired for this test, and a webhook would refuse it as typed (body: not
        valid JSON). Paste this body into your alert instead:
      </p>
      <pre className="mb-2 small bg-body p-2 rounded border" data-testid="test-repaired-body">
        {body}
      </pre>
      <div className="d-flex flex-wrap gap-2">
        <CopyButton text={body} label="Copy body" />
        {onUse && (
          <button type="button" className="btn btn-outline-secondary" onClick={() => onUse(body)}>
            Use this body
          </button>
        )}
      </div>
    </div>
  );
}
