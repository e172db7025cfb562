import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/**
 * A ref whose element takes the focus when it is shown: a form's outcome, while the button that
 * was pressed is disabled by the call (the focus would fall back to the page) or far from it.
 * `unlessTyping`: not from a field the trader is typing in (the playground's Ctrl+Enter), so
 * they keep their place.
 */
export function useFocusWhenShown<T extends HTMLElement>({ unlessTyping = false } = {}): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!unlessTyping || !typing()) ref.current?.focus();
  }, [unlessTyping]);
  return ref;
}

function typing(): boolean {
  const active = document.activeElement as HTMLElement | null;
  return !!active && (active.matches('input, textarea, select') || active.isContentEditable);
}

/**
 * A form's outcome, read out and focused when it appears: the submit button (and the fields) were
 * disabled by the call, or are far below it in a long form, so the focus (and the view) is taken
 * to the message, as field errors take it. A failure is an alert, a success (`variant`) a status.
 */
export function FocusedAlert({
  children,
  className,
  variant = 'danger',
}: {
  children: ReactNode;
  className?: string;
  variant?: 'danger' | 'success';
}) {
  const ref = useFocusWhenShown<HTMLDivElement>();
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={variant === 'danger' ? 'alert' : 'status'}
      className={`alert alert-${variant}${className ? ` ${className}` : ''}`}
    >
      {children}
    </div>
  );
}

export interface Failure<T> {
  value: T;
  /** Key its alert with it: a failure saying what the last one said is a new alert, focused again. */
  attempt: number;
}

/**
 * A form's failure, numbered by attempt: clearing it at a new attempt and setting it again may
 * render as one change when the answer comes at once, which would leave the old alert in place.
 */
export function useFailure<T>(): [Failure<T> | null, (value: T | null) => void] {
  const [failure, setFailure] = useState<Failure<T> | null>(null);
  const attempts = useRef(0);
  const show = useCallback((value: T | null) => {
    if (value !== null) attempts.current += 1;
    setFailure(value === null ? null : { value, attempt: attempts.current });
  }, []);
  return [failure, show];
}
