import { useEffect, useRef } from 'react';

/**
 * The button that opened an inline form (Rename), focused again when the form closes (saved,
 * Cancel or Escape): a keyboard user goes on from where they were, not from the top of the page.
 */
export function useFocusBack<T extends HTMLElement>(open: boolean) {
  const ref = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    // Only when the focus went with the form: not when the user has moved on meanwhile.
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (wasOpen.current && !open && lost) ref.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return ref;
}
