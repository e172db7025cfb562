import { ADMIN_TEXT } from '@router/shared';
import { useCallback, useState } from 'react';
import type { FormOutcome } from '../../components/form-outcome.tsx';
import { errorMessage } from '../../lib/error-message.ts';

export { type FormOutcome, FormResult } from '../../components/form-outcome.tsx';

/** SPEC §8 admin forms: the server's message, or 'Something went wrong...' when it is empty or 'Error'. */
export function failure(error: unknown): FormOutcome {
  const text = errorMessage(error, ADMIN_TEXT.failed);
  return { ok: false, text: text === 'Error' ? ADMIN_TEXT.failed : text };
}

export const success = (text: string): FormOutcome => ({ ok: true, text });

/**
 * An admin form's submission: `action` answers the success text (null: nothing to say) or
 * throws; either way the outcome is shown and `onDone` told (the audit log reloads). `clear` is
 * for a submission its fields refuse (react-hook-form's onInvalid): the last outcome spoke of
 * other values.
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
  const clear = useCallback(() => setOutcome(null), []);
  return { outcome, run, clear };
}

/** A number input's value for a zod number schema: '' is missing ('Required'). */
export const numberValue = (value: unknown): number | undefined =>
  value === '' || value === undefined || value === null ? undefined : Number(value);
