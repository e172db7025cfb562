import { useState } from 'react';

/**
 * The item a confirmation dialog asks about, and what its confirm button does: `remove`, then
 * `after`. A failure is ignored on screen (SPEC §8: delete failures are silently ignored) but
 * logged (DESIGN.md) as `${what} failed`.
 */
export function useConfirmedDelete<T>(remove: (item: T) => Promise<unknown>, after: () => void, what: string) {
  const [pending, setPending] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (pending === null) return;
    setBusy(true);
    await remove(pending).catch((failure: unknown) => console.debug(`${what} failed`, failure));
    setBusy(false);
    setPending(null);
    after();
  }

  return { pending, ask: setPending, cancel: () => setPending(null), busy, confirm: () => void confirm() };
}
