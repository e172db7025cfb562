import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a move to another screen, the screen's content (`main`) takes the focus: a screen reader
 * reads the new screen and Tab goes on inside it. Only when the focus is on the menu (the item
 * chosen) or was lost with the old screen: a screen that focuses something itself (a dialog its
 * address opens, a form's first field) keeps it. Not on the first load: the browser starts there.
 */
export function useFocusOnNavigation(main: RefObject<HTMLElement | null>, menuId: string): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const active = document.activeElement;
    const onMenuOrLost = active === null || active === document.body || active.closest(`#${menuId}`) !== null;
    if (onMenuOrLost) main.current?.focus({ preventScroll: true });
  }, [pathname, main, menuId]);
}
