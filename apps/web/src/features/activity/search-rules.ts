import { ACTIVITY_SEARCH_MIN_LENGTH } from '@router/shared';

/** SPEC §9: the activity search waits 777 ms after the last keystroke. */
export const ACTIVITY_SEARCH_DEBOUNCE_MS = 777;

/** The search a text asks for: itself from 3 characters (trimmed), else none (''). */
export const effectiveSearch = (text: string): string => {
  const trimmed = text.trim();
  return trimmed.length >= ACTIVITY_SEARCH_MIN_LENGTH ? trimmed : '';
};

/** SPEC §4: 1 or 2 characters mark the box invalid; empty is fine. */
export const isSearchTooShort = (text: string): boolean => {
  const length = text.trim().length;
  return length > 0 && length < ACTIVITY_SEARCH_MIN_LENGTH;
};
