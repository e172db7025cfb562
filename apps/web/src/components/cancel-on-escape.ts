import type { KeyboardEvent } from 'react';

/**
 * An inline form's onKeyDown: Escape cancels it unsaved, like its Cancel. Only a key pressed
 * inside the form itself: a portal opened from it (a confirmation) bubbles its keys through
 * React's tree too, and Escape there closes only that.
 */
export function cancelOnEscape(onCancel: (() => void) | undefined) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (onCancel && event.key === 'Escape' && event.currentTarget.contains(event.target as Node)) {
      event.stopPropagation();
      onCancel();
    }
  };
}
