// Admin tools against the real server (issue 15): the administrator (ADMIN_EMAILS) creates a
// referral campaign; a new person signs up through its link, confirms by the mailed link and sees
// the campaign's credits; the stats CSV counts them; a reward adds more; the deleted campaign's
// link says so; proxy mode shows that user's data under the red banner until reset; the audit
// log lists every step.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { mailCount, mailLink } from './server-mail.ts';
import { E2E_ADMIN_EMAIL } from './support/admin.ts';
import { DESKTOP, saveScreen, useBrowser } from './support/screens.ts';
import { createUser, signInPage, type TestUser } from './support/users.ts';

const browser = useBrowser();
const PASSWORD = 'Quartz-Lantern-42!';

const form = (page: Page, name: string) => page.getByRole('form', { name });
const balance = (page: Page) => page.getByTestId('account-balance-value').textContent();

let admin: TestUser | undefined;
async function theAdmin(): Promise<TestUser> {
  admin ??= await createUser('admin', E2E_ADMIN_EMAIL);
  return admin;
}

async function openAdmin(page: Page): Promise<void> {
  await page.goto('/me/admin');
  await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
}

/** The audit log's rows as 'action label | user' text. */
async function auditRows(page: Page): Promise<string[]> {
  const rows = page.locator('section', { has: page.getByRole('heading', { name: 'Audit log' }) }).locator('tbody tr');
  return rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '');
      return `${cells[3]} | ${cells[2]}`;
    }),
  );
}

describe('admin tools', () => {
  const email = `referred-${Date.now()}@example.test`;
  let code = '';

  it('runs a referral campaign end to end: link, sign-up, confirmation, credits, stats CSV', async () => {
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, await theAdmin());
    await openAdmin(page);
    // Administrators see Admin in the menu and Followers greyed in the settings menu.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(1);

    const create = form(page, 'Create a referrer link');
    await create.getByText('Complete and submit the form to get referrer link').waitFor();
    // Only brokerages a referred user can connect here: not Lightspeed (no order API), nor Saxo
    // (OAuth, no app credentials on this server); Schwab's are set (global-setup).
    const brokerages = await create.getByLabel('Brokerage').locator('option').allTextContents();
    expect(brokerages).toEqual(expect.arrayContaining(['- None -', 'Paper Trading', 'Schwab']));
    expect(brokerages).not.toContain('Lightspeed');
    expect(brokerages).not.toContain('Saxo');
    await create.getByLabel('Name').fill('E2E Spring');
    await create.getByRole('button', { name: 'Create' }).click();
    const linkField = create.getByLabel('Referrer link');
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/signup\/[a-z2-9]{8}$/);
    code = link.split('/').at(-1) ?? '';
    await saveScreen(page, 'admin-referrer-created-desktop', true);

    // A new person follows the link: the code is filled in and its credits announced.
    const visitor = await openPage(browser(), DESKTOP);
    const before = mailCount();
    await visitor.page.goto(link);
    expect(await visitor.page.getByLabel(/Referral code/).inputValue()).toBe(code);
    await visitor.page.getByText('You get 100 extra signals once you confirm your email.').waitFor();
    await visitor.page.getByLabel('First name').fill('Referred');
    await visitor.page.getByLabel('Email').fill(email);
    await visitor.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await expect
      .poll(() => visitor.page.getByTestId('password-strength').evaluate((bar) => bar.style.width))
      .toBe('100%');
    await visitor.page.getByLabel('Password confirmation').fill(PASSWORD);
    await visitor.page.getByRole('checkbox').check();
    await visitor.page.getByRole('button', { name: 'Create account' }).click();
    await visitor.page
      .getByText('Thank you for the registration. Please check for the confirmation email to continue.')
      .waitFor();

    // Confirmed by the mailed link (that signs in): 5 sign-up credits and the campaign's 100.
    await visitor.page.goto(await mailLink(email, '/auth/email?token=', before));
    await visitor.page.getByText('You have successfully confirmed your email, you can log in now.').waitFor();
    await visitor.page.goto('/me/account');
    await expect.poll(() => balance(visitor.page)).toBe('105');
    await visitor.page.getByText('Referral').first().waitFor();
    await saveScreen(visitor.page, 'admin-referred-account-desktop', true);
    expect(visitor.errors).toEqual([]);
    await visitor.close();

    // The stats CSV counts the sign-up, its confirmation and the credits granted.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download stats' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('signal-router-referrers.csv');
    const csv = fs
      .readFileSync((await download.path()) ?? '', 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe(
      'name,code,signups,confirmed signups,paying users,signals sent,credits granted,brokerage,deleted at',
    );
    expect(csv).toContain(`E2E Spring,${code},1,1,0,0,100,,`);

    // A reward on top, through the ledger.
    const reward = form(page, 'Reward signals');
    await reward.getByLabel('Email').fill(email);
    await reward.getByRole('button', { name: 'Add' }).click();
    await reward.getByText('Successfully added').waitFor();

    // The campaign ends: deleted by its link, which then says so on the sign-up screen.
    const remove = form(page, 'Delete a referrer link');
    await remove.getByLabel('Link or suffix').fill(link);
    await remove.getByRole('button', { name: 'Delete' }).click();
    await remove.getByText('Deleted the referrer link').waitFor();
    const late = await openPage(browser(), DESKTOP);
    await late.page.goto(link);
    await late.page
      .getByText('This referral link has been deleted: signing up through it gives no extra signals')
      .waitFor();
    expect(late.errors).toEqual([]);
    await late.close();

    await expect
      .poll(() => auditRows(page))
      .toEqual(
        expect.arrayContaining([
          `Reward | ${email}`,
          'Stats downloaded | -',
          'Referral campaign created | -',
          'Referral campaign deleted | -',
        ]),
      );
    await saveScreen(page, 'admin-audit-desktop', true);
    expect(errors).toEqual([]);
    await close();
  });

  it('acts as another user under the red banner, and resets', async () => {
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    const me = await theAdmin();
    await signInPage(page, me);
    await page.goto('/me/account');
    await expect.poll(() => balance(page)).toBe('5');

    await openAdmin(page);
    const proxy = form(page, 'Proxied user');
    await proxy.getByLabel('Email').fill(email.toUpperCase());
    await proxy.getByRole('button', { name: 'Save' }).click();
    await proxy.getByText('Applied').waitFor();
    await page.getByText(`Switched to ${email.split('@')[0]}@`).waitFor();

    // The referred user's data: 105 + 25 rewarded.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account & Billing' }).click();
    await expect.poll(() => balance(page)).toBe('130');
    await saveScreen(page, 'admin-proxied-account-desktop', true);

    // A change made as them is recorded; then back to the administrator.
    await page.goto('/me/settings');
    await page.getByLabel('First name').fill('Proxied');
    await page.getByRole('form', { name: 'General' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await form(page, 'Proxied user').getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.getByText(/Switched to/).count()).toBe(0);
    await expect
      .poll(() => auditRows(page))
      .toEqual(
        expect.arrayContaining([`Proxy on | ${email}`, `Change while proxied | ${email}`, `Proxy off | ${email}`]),
      );
    await page.goto('/me/account');
    await expect.poll(() => balance(page)).toBe('5');
    expect(errors).toEqual([]);
    await close();
  });
});
