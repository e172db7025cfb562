import { LEGAL_SECTIONS } from './sections-legal.ts';
import { RIGHTS_SECTIONS } from './sections-rights.ts';
import { USING_SECTIONS } from './sections-using.ts';
import type { TermsSection } from './terms-section.ts';

/** The 26 sections in order (numbered from 1 when shown). */
export const TERMS_SECTIONS: readonly TermsSection[] = [...USING_SECTIONS, ...RIGHTS_SECTIONS, ...LEGAL_SECTIONS];
