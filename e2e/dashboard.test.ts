// The dashboard against the real server (issue #6 parts 1–3, 8): a new user is welcomed by the
// tour and skips it, connects the paper broker and creates a webhook through the API, sends
// three signals from outside (one invalid), and finds them in the tiles, the chart and Last
// actions; searches the log and expands order rows. Screenshots at desktop and phone sizes.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { createHook, signal } from './support/signals.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

async function snap(page: Page, name: string, fullPage = true) {
  await page.waitForTimeout(400); // the tour's tooltips fade in
  await saveScreen(page, name, fullPage);
}

const tileValue = (page: Page, id: string) => page.getByTestId(`${id}-value`).textContent();
const orderRows = (page: Page) => page.locator('tbody tr', { has: page.locator('.activity-toggle') });

describe('dashboard', () => {
  it('welcomes with the tour, then shows signals in tiles, chart and Last actions', async () => {
    const user = await createUser('dashboard');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);

    // A new user: the welcome tour, then a popover on the Dashboard menu item; skipped.
    await page.goto('/me');
    await page.getByRole('alertdialog', { name: 'Welcome to Signal Router' }).waitFor();
    await snap(page, 'dashboard-tour-welcome-desktop', false);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alertdialog', { name: 'Dashboard' }).waitFor();
    await snap(page, 'dashboard-tour-menu-desktop', false);
    await page.getByRole('button', { name: 'Skip tour' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(await tileValue(page, 'tile-brokers')).toBe('0');
    expect(await tileValue(page, 'tile-balance')).toBe('5');
    await page.getByText('No stats').waitFor();

    // Paper broker and a webhook through the API; three signals from outside, one invalid.
    const connectorKey = await connectPaper(user);
    const shortKey = await createHook(user, connectorKey);
    expect(await signal(shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).toBe(201);
    expect(await signal(shortKey, { symbol: 'TSLA', action: 'buy', quantity: 2 })).toBe(201);
    expect(await signal(shortKey, { symbol: 'AAPL', action: 'jump', quantity: 1 })).toBe(400);

    // Reload: no tour (dismissed, and a broker is connected now); the signals are everywhere.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
          await page.getByRole('heading', { name: 'Activity' }).waitFor();
          return orderRows(page).count();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(2);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    // The tiles load on their own query, which may answer after the activity's.
    await expect.poll(() => tileValue(page, 'tile-brokers')).toBe('1');
    await expect.poll(() => tileValue(page, 'tile-last-day')).toMatch(/^[23] \/ 0$/);
    await page.getByTestId('hook-calls-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByText(`Webhook ${shortKey} (Paper Trading#`).first().waitFor();
    await snap(page, 'dashboard-desktop');

    // Search: 2 characters are invalid; 'AAPL' leaves the AAPL calls only.
    const search = page.getByPlaceholder('Search example: AAPL');
    await search.fill('AA');
    await expect.poll(() => search.getAttribute('class')).toContain('is-invalid');
    const before = await orderRows(page).count();
    await search.fill('AAPL');
    await expect.poll(() => orderRows(page).count(), { timeout: 5000 }).toBeLessThan(before);
    expect(await page.getByText('TSLA').count()).toBe(0);

    // Expand an order row from the keyboard: request, response and elapsed ms.
    const toggle = orderRows(page).locator('.activity-toggle').first();
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const details = page.getByTestId('order-call').first();
    await details.getByText('Request', { exact: true }).waitFor();
    await details.getByText(/Elapsed: \d+ ms|Elapsed: -/).waitFor();
    expect(await details.getByTestId('order-call-response').getAttribute('data-tone')).toMatch(/success|danger/);
    await snap(page, 'dashboard-search-expanded-desktop');

    expect(errors).toEqual([]);
    await close();

    // The same dashboard on a phone: Source folds under Date, the menu is a drawer.
    const phone = await openPage(browser(), PHONE);
    await signInPage(phone.page, user);
    await phone.page.goto('/me');
    await phone.page.getByText(`Webhook ${shortKey} (Paper Trading#`).first().waitFor();
    await phone.page.getByTestId('hook-calls-chart').waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await phone.page.getByRole('columnheader', { name: 'Source' }).isVisible()).toBe(false);
    await snap(phone.page, 'dashboard-phone');
    await phone.page.getByRole('button', { name: 'Open menu' }).click();
    await phone.page.getByRole('dialog').getByRole('link', { name: 'Brokers & Webhooks' }).waitFor();
    await snap(phone.page, 'dashboard-phone-menu', false);
    expect(phone.errors).toEqual([]);
    await phone.close();
  }, 120_000);

  it('tours a new user on a phone with centred steps, from the welcome to the connector modal', async () => {
    const user = await createUser('tour-phone');
    const { page, errors, close } = await openPage(browser(), PHONE);
    await signInPage(page, user);
    await page.goto('/me');
    await page.getByRole('alertdialog', { name: 'Welcome to Signal Router' }).waitFor();
    await snap(page, 'dashboard-tour-welcome-phone', false);
    for (const step of ['Dashboard', 'Brokers & Webhooks', 'Account & Billing', 'Documentation']) {
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('alertdialog', { name: step }).waitFor();
    }
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alertdialog', { name: 'Connect your first broker' }).waitFor();
    await snap(page, 'dashboard-tour-connector-phone', false);
    await page.getByRole('link', { name: 'Connect a broker' }).click();
    await page.waitForURL(/\/me\/connector$/);
    // Finished: not offered again.
    await page.goto('/me');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  it('shows the report placeholder and the terms, with the privacy policy linked from the footer', async () => {
    const user = await createUser('terms');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/report');
    await page.getByRole('heading', { level: 1, name: 'Reporting?' }).waitFor();
    await page.getByText('In progress...').waitFor();
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Privacy policy' }).click();
    await page.waitForURL(/\/privacy$/);
    await page.getByRole('main').getByRole('link', { name: 'terms of service' }).click();
    await page.waitForURL(/\/terms-of-service#privacy$/);
    await page.getByRole('heading', { level: 2, name: '12. Privacy' }).waitFor();
    await page.getByText('Last modified: January 31, 2022').waitFor();
    await page.getByRole('heading', { level: 2, name: '25. Miscellaneous' }).waitFor();
    await page.getByRole('heading', { level: 2, name: '26. Notice' }).waitFor();
    await snap(page, 'terms-desktop', false);
    expect(errors).toEqual([]);
    await close();

    const phone = await openPage(browser(), PHONE);
    await phone.page.goto('/terms-of-service');
    await phone.page.getByRole('heading', { level: 1, name: 'Terms of service' }).waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(phone.page, 'terms-phone', false);
    expect(phone.errors).toEqual([]);
    await phone.close();
  }, 60_000);
});
