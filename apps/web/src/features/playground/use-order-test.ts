import { useCallback, useRef, useState } from 'react';
import { useClient } from 'urql';
import type { AccountChoice } from './connectors.ts';
import { PlaygroundOrderPreviewDocument } from './documents.ts';
import { isOutcome, pickEmoji, prepareTest, previewOutcome, type TestOutcome } from './test-outcome.ts';

/** An outcome as shown; `strictBody` when the text was repaired before sending (see prepareTest). */
export type ShownOutcome = TestOutcome & { emoji: string; strictBody?: string };

/** The Test button: checks, then orderPreview; the latest click wins. */
export function useOrderTest() {
  const client = useClient();
  const [outcome, setOutcome] = useState<ShownOutcome | null>(null);
  const [testing, setTesting] = useState(false);
  const latest = useRef(0);

  const run = useCallback(
    async (text: string, choice: AccountChoice | undefined) => {
      const run = ++latest.current;
      const show = (next: TestOutcome & { strictBody?: string }) => {
        if (run === latest.current) setOutcome({ ...next, emoji: pickEmoji(next.kind) });
      };
      const prepared = prepareTest(text, choice);
      if (isOutcome(prepared)) {
        setTesting(false);
        show(prepared);
        return;
      }
      setTesting(true);
      setOutcome(null);
      try {
        const result = await client.mutation(PlaygroundOrderPreviewDocument, prepared.request).toPromise();
        const outcome = previewOutcome(result.data?.orderPreview, result.error);
        show(prepared.strictBody === undefined ? outcome : { ...outcome, strictBody: prepared.strictBody });
      } finally {
        if (run === latest.current) setTesting(false);
      }
    },
    [client],
  );

  // Forgets the result, and an answer still on its way (it was asked for another account).
  const clear = useCallback(() => {
    latest.current += 1;
    setTesting(false);
    setOutcome(null);
  }, []);

  return { outcome, testing, run, clear };
}
