import type { ReactNode } from 'react';

/** One question of the FAQ; `id` is its anchor (/faq#credits). */
export interface FaqEntry {
  id: string;
  question: string;
  answer: ReactNode;
}
