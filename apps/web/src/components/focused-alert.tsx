import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A form's failure, read out and focused when it appears: above a long form the submit button is
 * far below it, so the focus (and the view) is taken to the message, as field errors take it.
 */
export function FocusedAlert({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} role="alert" className="alert alert-danger">
      {children}
    </div>
  );
}
