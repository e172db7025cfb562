/** One numbered section of the terms; `id` is its anchor (#privacy is linked from the footer). */
export interface TermsSection {
  id: string;
  title: string;
  paragraphs: readonly string[];
}

/** SPEC §9 Terms facts, each used verbatim in the text. */
export const TERMS_LAST_MODIFIED = 'January 31, 2022';
export const TERMS_MINIMUM_AGE = 18;
