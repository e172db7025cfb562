import { type ReactNode, type RefObject, useEffect, useRef } from 'react';

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
 * A form's failure, read out and focused when it appears: the submit button (and the fields) were
 * disabled by the call, or are far below it in a long form, so the focus (and the view) is taken
 * to the message, as field errors take it.
 */
export function FocusedAlert({ children, className }: { children: ReactNode; className?: string }) {
  const ref = useFocusWhenShown<HTMLDivElement>();
  return (
    <div ref={ref} tabIndex={-1} role="alert" className={`alert alert-danger${className ? ` ${className}` : ''}`}>
      {children}
    </div>
  );
}
