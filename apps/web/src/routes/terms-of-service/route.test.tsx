import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test/render-route.tsx';
import { TERMS_SECTIONS } from './sections.ts';

const text = () => document.body.textContent ?? '';

describe('terms of service (SPEC §2, §9 Terms)', () => {
  it('has 26 numbered sections ending with Miscellaneous and Notice, and a #privacy section', async () => {
    await renderRoute('/terms-of-service');
    expect(screen.getByText('Last modified: January 31, 2022')).toBeTruthy();
    expect(TERMS_SECTIONS).toHaveLength(26);
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles.at(-2)).toBe('25. Miscellaneous');
    expect(titles.at(-1)).toBe('26. Notice');
    expect(document.getElementById('privacy')?.querySelector('h2')?.textContent).toBe('12. Privacy');
    expect(new Set(TERMS_SECTIONS.map((section) => section.id)).size).toBe(26);
  });

  it("carries SPEC §9's facts", async () => {
    await renderRoute('/terms-of-service');
    for (const fact of [
      'at least 18 years old',
      'LOWER OF 100 USD OR THE AMOUNT YOU PAID US FOR THE SERVICES IN THE 12 MONTHS',
      'promotional credits expire 12 months after they are granted',
      'must be filed within 1 year',
      'arbitration in Chicago, Illinois, before a panel of three arbitrators',
      'No partnership, joint venture, employment or agency relationship arises',
      'are the entire agreement',
      'You may not assign or transfer your account',
      'without our prior written consent. We may assign or transfer these Terms, in whole or in part, freely',
      'deemed received 48 hours after it was sent',
      'deemed received 24 hours after it was first displayed',
      'controlled and operated from the United States. We make no guarantee',
      'from territories where their content or use is illegal is prohibited',
      'in breach of any applicable law of the United States',
      'at least 10 characters long, containing upper case letters, lower case letters, at least one digit and at least one punctuation character',
    ]) {
      expect(text()).toContain(fact);
    }
  });
});
