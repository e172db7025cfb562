// Signal credits against the real server (issue #14, stage 1): a new user's 5 sign-up credits
// are spent by live signals from outside; at ≤ 20 % of that grant every screen warns, with the
// way to Account & Billing (no card payments here: an administrator grants credits); that screen
// shows signals left, signals spent and the ledger; with none left the banner says so and the
// webhook refuses. Screenshots at desktop and phone sizes.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { makeAdministrator } from './support/database.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { createHook, signal } from './support/signals.ts';
import { connectPaper, createUser, graphql, signInPage } from './support/users.ts';

const browser = useBrowser();

const buy = (n: number) => ({ symbol: 'AAPL', action: 'buy', quantity: n });
const banner = (page: Page) => page.getByTestId('credits-banner');
const tileValue = (page: Page, id: string) => page.getByTestId(`${id}-value`).textContent();

describe('signal credits', () => {
  it('warns when credits run low, leads to Account & Billing, and shows the ledger', async () => {
    const user = await createUser('billing');
    const shortKey = await createHook(user, await connectPaper(user));
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);

    // 5 credits from sign-up: no banner.
    // The banner's own query has answered (the page never goes network-idle: the live stream stays open).
    const bannerAnswered = page.waitForResponse(
      (r) => r.url().includes('/graphql') && (r.request().postData() ?? r.url()).includes('CreditsBanner'),
    );
    await page.goto('/me/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await bannerAnswered;
    expect(await banner(page).count()).toBe(0);

    // 4 signals: 1 left, ≤ 20 % of the grant. The next screen warns.
    for (let n = 1; n <= 4; n++) expect(await signal(shortKey, buy(n))).toBe(201);
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await banner(page).waitFor();
    expect(await banner(page).textContent()).toContain('Only 1 signal left.');
    expect(await banner(page).textContent()).toContain('live webhooks refuse signals');
    expect(await banner(page).textContent()).toContain('granted by an administrator');
    await expect.poll(() => tileValue(page, 'tile-balance')).toBe('1');
    await saveScreen(page, 'billing-low-banner-desktop', false);

    // The banner leads to Account & Billing: the figures and the ledger, newest first.
    await banner(page).getByRole('link', { name: 'See your credits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account & Billing' }).waitFor();
    await expect.poll(() => tileValue(page, 'account-balance')).toBe('1');
    expect(await tileValue(page, 'account-spent')).toBe('4');
    const history = page.locator('section', { has: page.getByRole('heading', { name: 'Credit history' }) });
    await history.getByText('Sign-up credits').waitFor();
    const rows = history.locator('tbody tr');
    expect(await rows.count()).toBe(5);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('−1');
    expect(await rows.first().locator('td').nth(2).textContent()).toBe('1');
    expect(await rows.last().locator('td').nth(1).textContent()).toBe('+5');
    await saveScreen(page, 'billing-account-desktop', true);

    // The last credit: the banner says none are left, and the webhook refuses the next signal.
    expect(await signal(shortKey, buy(5))).toBe(201);
    expect(await signal(shortKey, buy(6))).toBe(400);
    await page.reload();
    await banner(page).waitFor();
    expect(await banner(page).textContent()).toContain('No signals left.');
    await expect.poll(() => rows.count()).toBe(6);
    await saveScreen(page, 'billing-exhausted-desktop', true);
    expect(errors).toEqual([]);
    await close();

    const phone = await openPage(browser(), PHONE);
    await signInPage(phone.page, user);
    await phone.page.goto('/me/account');
    await banner(phone.page).waitFor();
    await phone.page.getByText('Sign-up credits').waitFor();
    await saveScreen(phone.page, 'billing-account-phone', true);
    expect(phone.errors).toEqual([]);
    await phone.close();
  });

  it('takes back the warning as soon as an administrator adds credits, without a reload', async () => {
    const user = await createUser('billing-reward');
    const shortKey = await createHook(user, await connectPaper(user));
    for (let n = 1; n <= 5; n++) expect(await signal(shortKey, buy(n))).toBe(201);
    const admin = await createUser('billing-admin');
    await makeAdministrator(admin.email);
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me');
    await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor();
    await banner(page).filter({ hasText: 'No signals left.' }).waitFor();
    await expect.poll(() => tileValue(page, 'tile-balance')).toBe('0');

    // The trader waits on the dashboard while the administrator rewards 3 signals.
    await graphql(admin.token, 'mutation ($e: String!) { adminAccountReward(email: $e, credits: 3) }', {
      e: user.email,
    });
    await expect.poll(() => tileValue(page, 'tile-balance')).toBe('3');
    await expect.poll(() => banner(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});
