import { ADMIN_TEXT } from '@router/shared';
import { useCallback, useState } from 'react';
import { useFocusWhenShown } from '../../components/focused-alert.tsx';
import { errorMessage } from '../../lib/error-message.ts';

export interface FormOutcome {
  ok: boolean;
  text: string;
}

/** SPEC §8 admin forms: the server's message, or 'Something went wrong...' when it is empty or 'Error'. */
export function failure(error: unknown): FormOutcome {
  const text = errorMessage(error, ADMIN_TEXT.failed);
  return { ok: false, text: text === 'Error' ? ADMIN_TEXT.failed : text };
}

export const success = (text: string): FormOutcome => ({ ok: true, text });

/**
 * An admin form's submission: `action` answers the success text (null: nothing to say) or
 * throws; either way the outcome is shown and `onDone` told (the audit log reloads).
 */
export function useAdminAction(onDone: () => void) {
  const [outcome, setOutcome] = useState<FormOutcome | null>(null);
  const run = useCallback(
    async (action: () => Promise<FormOutcome | string | null>) => {
      setOutcome(null);
      try {
        const result = await action();
        setOutcome(typeof result === 'string' ? success(result) : result);
      } catch (error) {
        setOutcome(failure(error));
      }
      onDone();
    },
    [onDone],
  );
  return { outcome, run };
}

/**
 * An admin form's outcome beside its buttons. It takes the focus: the pressed button was disabled
 * while the call ran, which dropped the focus to the page, and a failure is then read out in place.
 */
export function FormResult({ outcome }: { outcome: FormOutcome | null }) {
  return outcome && <Outcome outcome={outcome} />;
}

function Outcome({ outcome }: { outcome: FormOutcome }) {
  const ref = useFocusWhenShown<HTMLSpanElement>();
  return (
    <span
      ref={ref}
      tabIndex={-1}
      className={outcome.ok ? 'text-success' : 'text-danger'}
      role={outcome.ok ? 'status' : 'alert'}
    >
      {outcome.text}
    </span>
  );
}

/** A number input's value for a zod number schema: '' is missing ('Required'). */
export const numberValue = (value: unknown): number | undefined =>
  value === '' || value === undefined || value === null ? undefined : Number(value);
