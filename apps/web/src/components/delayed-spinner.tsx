import { useEffect, useState } from 'react';

/** SPEC §9: spinners appear only after 500 ms, so fast loads do not flicker. */
export const SPINNER_DELAY_MS = 500;

export function DelayedSpinner({ delay = SPINNER_DELAY_MS }: { delay?: number }) {
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  if (!visible) return null;
  return (
    <div className="d-flex justify-content-center align-items-center py-5 min-vh-50" data-testid="spinner">
      <output className="spinner-border text-secondary">
        <span className="visually-hidden">Loading…</span>
      </output>
    </div>
  );
}
