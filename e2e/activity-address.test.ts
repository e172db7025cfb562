// A trader narrows the dashboard's activity (symbol typed fast, a result) and picks the chart's
// week view, reloads (only the filtered list is ever drawn), leaves for
// another screen and comes Back: the same list and the same filters, from the address.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, useBrowser } from './support/screens.ts';
import { createWebhook, signalAnswer } from './support/signals.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

const lines = (page: Page) => page.getByTestId('trade-line').allTextContents();

async function expectFiltered(page: Page) {
  await expect.poll(async () => (await lines(page)).map((text) => text.includes('MSFT'))).toEqual([true]);
  expect(await page.getByLabel('Symbol').inputValue()).toBe('MSFT');
  expect(await page.getByLabel('Result').inputValue()).toBe('filled');
}

describe('activity filters in the address', () => {
  it('keeps the symbol and result filters and the chart interval across a reload and Back', async () => {
    const user = await createUser('address');
    const hook = await createWebhook(user, await connectPaper(user), 'TV live', false);
    for (const symbol of ['AAPL', 'MSFT']) {
      expect((await signalAnswer(hook.shortKey, { symbol, action: 'buy', quantity: 1, type: 'market' })).status).toBe(
        201,
      );
    }
    expect((await signalAnswer(hook.shortKey, { symbol: 'MSFT', action: 'buy' })).status).toBe(400);
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me');
    await expect.poll(() => page.getByTestId('trade-line').count()).toBe(3);

    // Typed at full speed: no keystroke lost to the address being written meanwhile.
    await page.getByLabel('Symbol').pressSequentially('MSFT');
    await page.getByLabel('Result').selectOption('filled');
    await expectFiltered(page);
    // Either order: the typed symbol is written to the address after a pause, the select at once.
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
      .toEqual({ symbol: 'MSFT', result: 'filled' });
    await page.getByText('Week', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('interval')).toBe('week');

    // Every trade line the reloaded page ever draws: the unfiltered list must not flash first.
    await page.addInitScript(() => {
      const drawn = new Set<string>();
      Object.assign(window, { drawnTradeLines: drawn });
      new MutationObserver(() => {
        document.querySelectorAll('[data-testid="trade-line"]').forEach((line) => {
          drawn.add(line.textContent ?? '');
        });
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.reload();
    await expectFiltered(page);
    const drawn = await page.evaluate(() => [
      ...(window as unknown as { drawnTradeLines: Set<string> }).drawnTradeLines,
    ]);
    expect(drawn.filter((text) => !text.includes('MSFT'))).toEqual([]);
    expect(await page.getByRole('radio', { name: 'Week' }).isChecked()).toBe(true);

    await page.getByRole('link', { name: 'Brokers & Webhooks' }).first().click();
    await page.waitForURL('**/me/connector');
    await page.goBack();
    await expectFiltered(page);
    expect(errors).toEqual([]);
    await close();
  });
});
