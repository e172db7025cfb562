import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Scrolls to the section named by the address hash (deep links such as /faq#credits), else to the top. */
export function useHashScroll(): void {
  const { hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    // Instant: Bootstrap makes scrolling smooth, which would animate from the top on every open.
    if (target) target.scrollIntoView?.({ behavior: 'instant', block: 'start' });
    else window.scrollTo?.(0, 0);
  }, [hash]);
}
