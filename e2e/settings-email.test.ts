// Settings tells a pending email change the server knows of, after a reload too (the new address
// applies only once the link sent to it is opened).
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, useBrowser } from './support/screens.ts';
import { createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

describe('settings: pending email change', () => {
  it('shows the address waiting for confirmation after a reload, keeping the current email', async () => {
    const user = await createUser('pending-email');
    const next = `moved-${Date.now()}@example.test`;
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/settings');
    const general = page.getByRole('form', { name: 'General' });
    await general.getByLabel('Email').fill(next);
    await general.getByRole('button', { name: 'Save' }).click();
    await general.getByText(`Saved. Open the link we sent to ${next} to change your email.`).waitFor();

    await page.reload();
    const pending = page.getByRole('form', { name: 'General' }).getByRole('status');
    await pending.waitFor();
    expect(await pending.textContent()).toBe(
      `A change of your email to ${next} waits for confirmation: open the link we sent to that address.`,
    );
    expect(await page.getByRole('form', { name: 'General' }).getByLabel('Email').inputValue()).toBe(user.email);
    expect(errors).toEqual([]);
    await close();
  });
});
