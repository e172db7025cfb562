// Issue #21 part 7: the public pages a visitor reads before signing up — the landing page at /,
// the FAQ and the privacy policy, with the footer's links (Contact Support from SUPPORT_EMAIL) —
// at desktop and phone sizes; a signed-in user opening / goes on to the dashboard.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

/** No horizontal scrolling: the page fits the screen's width. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('public pages', () => {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`explains the product at / and answers questions at /faq (${size})`, async () => {
      const { page, errors, close } = await openPage(browser(), viewport);
      await page.goto('/');
      await page
        .getByRole('heading', { level: 1, name: 'Your TradingView alerts, placed as orders at your broker' })
        .waitFor();
      const brokers = page.getByRole('list', { name: 'Supported brokers' });
      await brokers.getByText('Paper Trading').waitFor();
      expect(await brokers.getByRole('listitem').count()).toBeGreaterThan(5);
      await page.getByRole('heading', { name: 'How an alert becomes an order' }).waitFor();
      expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
      expect(await fitsWidth(page)).toBe(true);
      await saveScreen(page, `landing-${size}`, size === 'phone');

      const footer = page.getByRole('navigation', { name: 'Footer' });
      // The address comes with the site query, a moment after the page.
      await expect
        .poll(() => footer.getByRole('link', { name: 'Contact Support' }).getAttribute('href'))
        .toBe('mailto:support@e2e.example');
      await footer.getByRole('link', { name: 'General FAQs' }).click();
      await page.waitForURL(/\/faq$/);
      await page.getByRole('heading', { level: 1, name: 'General FAQs' }).waitFor();
      await page.getByRole('heading', { name: 'Why does TradingView never reach my webhook?' }).waitFor();
      await page.locator('#brokers').getByText('Schwab').waitFor();
      await page.locator('#support').getByRole('link', { name: 'support@e2e.example' }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await saveScreen(page, `faq-${size}`, false);

      await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Privacy policy' }).click();
      await page.waitForURL(/\/privacy$/);
      await page.getByRole('heading', { level: 1, name: 'Privacy policy' }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await saveScreen(page, `privacy-${size}`, false);
      expect(errors).toEqual([]);
      await close();
    });
  }

  it('sends a signed-in user from / to the dashboard', async () => {
    const user = await createUser('landing');
    await connectPaper(user); // no welcome tour
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/');
    await page.waitForURL(/\/me$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
