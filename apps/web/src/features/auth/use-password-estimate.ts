import { PASSWORD_ESTIMATE_MIN_LENGTH, PASSWORD_MIN_SCORE } from '@router/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { PasswordEstimateDocument } from './documents.ts';

export const ESTIMATE_DEBOUNCE_MS = 300;

/** SPEC §5: the server is asked only for passwords longer than 3 characters; shorter ones score 0. */
export const needsEstimate = (password: string): boolean => password.length >= PASSWORD_ESTIMATE_MIN_LENGTH;

export interface PasswordEstimate {
  /** The score of `password` (zxcvbn guesses_log10), null until known. */
  score: number | null;
  /** The score of `password` now: the known one, else asked at once (for submitting). */
  scoreNow(password: string): Promise<number | null>;
  /**
   * Whether `password` is too weak (SPEC §5: the score must exceed 10); false while unknown, the
   * server judging then. Forms ask it on submit, and when other fields refuse the submission,
   * so 'Password too weak.' comes with their errors, not one round later.
   */
  isWeak(password: string): Promise<boolean>;
}

/** The strength of the password being typed, asked (debounced) from `authPasswordEstimate`. */
export function usePasswordEstimate(password: string): PasswordEstimate {
  const { mutate } = useCall();
  const cache = useRef(new Map<string, number>());
  const [known, setKnown] = useState<{ password: string; score: number } | null>(null);

  const ask = useCallback(
    async (value: string): Promise<number | null> => {
      if (!needsEstimate(value)) return 0;
      const cached = cache.current.get(value);
      if (cached !== undefined) return cached;
      try {
        const { authPasswordEstimate } = await mutate(PasswordEstimateDocument, { password: value });
        cache.current.set(value, authPasswordEstimate);
        return authPasswordEstimate;
      } catch {
        // Rate limited or offline: the bar stays empty and the server judges on submit.
        return null;
      }
    },
    [mutate],
  );

  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () => {
        void ask(password).then((score) => {
          if (live && score !== null) setKnown({ password, score });
        });
      },
      needsEstimate(password) ? ESTIMATE_DEBOUNCE_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [password, ask]);

  const isWeak = useCallback(
    async (value: string) => {
      const score = await ask(value);
      return score !== null && score <= PASSWORD_MIN_SCORE;
    },
    [ask],
  );

  return { score: known?.password === password ? known.score : null, scoreNow: ask, isWeak };
}
