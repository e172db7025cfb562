// The paper account screen against the real server (issue #21 point 6): a trader creates a live
// webhook on the paper connector, an alert places an order on it (an unknown symbol is refused
// like a real broker refuses it), the account's screen shows the position and the fill, and a
// reset with a confirmation puts the cash back. Screenshots at desktop and phone sizes.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { createHook, signal, signalAnswer } from './support/signals.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

async function snap(page: Page, name: string) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await saveScreen(page, name, true);
}

describe('paper account', () => {
  it('shows the position a live webhook placed, and resets after a confirmation', async () => {
    const user = await createUser('paper');
    await connectPaper(user);
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/connector');
    const paper = page.getByRole('article', { name: 'Paper Trading' });
    await paper.getByRole('button', { name: 'New webhook for Paper account' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Name').fill('Live alerts');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await form.waitFor({ state: 'detached' });
    const url = await paper.getByLabel('Webhook URL of Live alerts').inputValue();
    const shortKey = url.slice(url.lastIndexOf('/') + 1);
    const alert = (body: Record<string, unknown>) => signalAnswer(shortKey, body);

    const placed = await alert({ symbol: 'AAPL', action: 'buy', quantity: 3 });
    expect(placed).toMatchObject({ status: 201, body: { status: 'filled' } });
    const resting = await alert({ symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 50 });
    expect(resting).toMatchObject({ status: 201, body: { status: 'accepted' } });
    expect(await alert({ symbol: 'ZZZZZQ', action: 'buy', quantity: 1 })).toEqual({
      status: 400,
      body: { status: 'ExecutionError', message: 'Paper Trading: Symbol not found: ZZZZZQ' },
    });

    await paper.getByRole('link', { name: 'Positions & orders of Paper account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Paper account' }).waitFor();
    const positions = page.getByRole('region', { name: 'Positions' });
    await positions.getByRole('rowheader', { name: /AAPL/ }).waitFor();
    await expect.poll(() => positions.getByRole('row').count()).toBe(2);
    await page
      .getByRole('region', { name: 'Open orders' })
      .getByText(/limit 50/)
      .waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Recent fills' }).getByRole('listitem').count()).toBe(1);
    await snap(page, 'paper-account-desktop');

    await page.getByRole('button', { name: 'Reset account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the paper account?' });
    await dialog.getByText(/cash goes back to \$100,000\.00/).waitFor();
    await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByText('The account was reset to $100,000.00.').waitFor();
    await positions.getByText(/No positions/).waitFor();
    await page.getByRole('region', { name: 'Open orders' }).getByText('No open orders.').waitFor();
    await page.getByText('$100,000.00', { exact: true }).first().waitFor();
    // After the reload, from the server again.
    await page.reload();
    await page
      .getByRole('region', { name: 'Positions' })
      .getByText(/No positions/)
      .waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('reads well on a phone', async () => {
    const user = await createUser('paper-phone');
    const shortKey = await createHook(user, await connectPaper(user));
    expect(await signal(shortKey, { symbol: 'ES1!', action: 'buy', quantity: 1 })).toBe(201);
    expect(await signal(shortKey, { symbol: 'EURUSD', action: 'sell', quantity: 10000 })).toBe(201);
    const { page, errors, close } = await openPage(browser(), PHONE);
    await signInPage(page, user);
    await page.goto('/me/connector');
    const paper = page.getByRole('article', { name: 'Paper Trading' });
    await paper.getByRole('link', { name: 'Positions & orders of Paper account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Paper account' }).waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Positions' }).getByRole('row').count()).toBe(3);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await snap(page, 'paper-account-phone');
    expect(errors).toEqual([]);
    await close();
  });
});
