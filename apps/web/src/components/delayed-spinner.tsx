import { useEffect, useState } from 'react';

/** SPEC §9: spinners appear only after 500 ms, so fast loads do not flicker. */
export const SPINNER_DELAY_MS = 500;

const PAGE = 'd-flex justify-content-center align-items-center py-5 min-vh-50';

/** `className` replaces the page-sized frame, e.g. inside a panel of fixed height. */
export function DelayedSpinner({ delay = SPINNER_DELAY_MS, className = PAGE }: { delay?: number; className?: string }) {
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  if (!visible) return null;
  return (
    <div className={className} data-testid="spinner">
      <output className="spinner-border text-secondary">
        <span className="visually-hidden">Loading…</span>
      </output>
    </div>
  );
}
