import { useEffect, useRef } from 'react';

/**
 * When the dialog of `/me/connector/{providerName}` closes and took the focus with it (it opened
 * from a link from elsewhere, a notice's mail, so nothing on the page opened it), the broker's
 * tile takes it: a keyboard user goes on from that broker, not from the top of the page.
 */
export function useTileFocusBack(base: string, providerName: string | undefined): void {
  const open = useRef(providerName);
  useEffect(() => {
    const closed = open.current;
    open.current = providerName;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!closed || providerName || !lost) return;
    document.querySelector<HTMLElement>(`a[href="${base}/${encodeURIComponent(closed)}"]`)?.focus();
  }, [base, providerName]);
}
