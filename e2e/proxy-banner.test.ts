// An administrator on a phone acts as a user whose address has a long local part (up to 64
// characters): the red 'Switched to' banner wraps inside the screen instead of widening the page.
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { makeAdministrator } from './support/database.ts';
import { PHONE, useBrowser } from './support/screens.ts';
import { createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

describe('proxy banner on a phone', () => {
  it('wraps a long proxied address within the screen', async () => {
    const admin = await createUser('bannerad');
    await makeAdministrator(admin.email);
    const localPart = `p${Date.now()}${'x'.repeat(40)}`.slice(0, 60);
    const proxied = await createUser('', `${localPart}@example.test`);
    const { page, errors, close } = await openPage(browser(), PHONE);
    await signInPage(page, admin);
    await page.goto('/me/admin');
    const proxy = page.getByRole('form', { name: 'Proxied user' });
    await proxy.getByLabel('Email').fill(proxied.email);
    await proxy.getByRole('button', { name: 'Save' }).click();
    await proxy.getByText('Applied').waitFor();
    const banner = page.getByText(`Switched to ${localPart}@`);
    await banner.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const box = await banner.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE.width);
    await proxy.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.getByText(/Switched to/).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});
