import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The section id an address hash names ('#a%20b' → 'a b'); a malformed escape (#%E0) names nothing rather than throwing. */
export function hashId(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return '';
  }
}

/** Scrolls to the section named by the address hash (deep links such as /faq#credits), else to the top. */
export function useHashScroll(): void {
  const { hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(hashId(hash)) : null;
    // Instant: Bootstrap makes scrolling smooth, which would animate from the top on every open.
    if (target) target.scrollIntoView?.({ behavior: 'instant', block: 'start' });
    else window.scrollTo?.(0, 0);
  }, [hash]);
}
