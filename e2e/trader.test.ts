// Issue #21 parts 1, 4, 5: a trader connects TradingView to a webhook — the URL, the warning that
// this test server (127.0.0.1 on a high port) is out of TradingView's reach, a copied message, a
// test signal through a test hook and, after a confirmation, through a live one — and reactivates
// a webhook deactivated by invalid requests, by mouse and by keyboard, at desktop and phone sizes.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { createWebhook, deactivate, signal } from './support/signals.ts';
import { connectPaper, createUser, graphql, signInPage, type TestUser } from './support/users.ts';

const browser = useBrowser();

async function snap(page: Page, name: string, fullPage = false) {
  // Bootstrap skips its fades with reduced motion: dialogs are pictured fully shown.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await saveScreen(page, name, fullPage);
}

const balance = async (user: TestUser) =>
  (await graphql<{ account: { balance: number } }>(user.token, '{ account { balance } }')).account.balance;

const row = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });

describe('connecting TradingView and reactivating a webhook', () => {
  it('shows the panel, sends test signals, and reactivates (desktop)', async () => {
    const user = await createUser('trader');
    const connectorKey = await connectPaper(user);
    const test = await createWebhook(user, connectorKey, 'TV test', true);
    const live = await createWebhook(user, connectorKey, 'TV live', false);
    const broken = await createWebhook(user, connectorKey, 'Broken', false);
    await deactivate(user, broken);
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInPage(page, user);
    await page.goto('/me/connector');

    // The test webhook's panel: URL, reachability warning, a message to copy.
    const testButton = row(page, 'TV test').getByRole('button', { name: /TradingView/ });
    await testButton.click();
    const panel = page.getByRole('dialog', { name: 'Connect TradingView · TV test' });
    await panel.waitFor();
    expect(await panel.getByLabel('Webhook URL').inputValue()).toBe(test.url);
    await panel.getByText('TradingView cannot reach this URL.').waitFor();
    await panel.getByRole('button', { name: 'Copy strategy alert' }).click();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied).toMatchObject({ symbol: '{{ticker}}', action: '{{strategy.order.action}}' });
    await snap(page, 'trader-tradingview-panel-desktop');

    // A test signal: answered at once with the draft; free.
    await panel.getByRole('button', { name: 'Send test signal' }).click();
    await panel.getByText('Answer: 201').waitFor();
    await panel.getByText('test · not sent', { exact: true }).waitFor();
    expect(await balance(user)).toBe(5);
    await snap(page, 'trader-test-signal-desktop');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => testButton.evaluate((button) => button === document.activeElement)).toBe(true);

    // The live webhook, by keyboard: a confirmation first, then a real (paper) order, one credit.
    const liveButton = row(page, 'TV live').getByRole('button', { name: /TradingView/ });
    await liveButton.focus();
    await page.keyboard.press('Enter');
    const livePanel = page.getByRole('dialog', { name: 'Connect TradingView · TV live' });
    expect(await livePanel.getByLabel('Webhook URL').inputValue()).toBe(live.url);
    await livePanel.getByRole('button', { name: 'Send test signal' }).click();
    await livePanel.getByText(/places a real order at Paper Trading and spends one signal credit/).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Place a real order');
    expect(await balance(user)).toBe(5);
    await snap(page, 'trader-live-confirm-desktop');
    await page.keyboard.press('Enter');
    await livePanel.getByText('Answer: 201').waitFor();
    await livePanel.getByText('filled', { exact: true }).waitFor();
    expect(await balance(user)).toBe(4);
    await livePanel.getByRole('button', { name: 'Close' }).last().click();
    await livePanel.waitFor({ state: 'detached' });

    // The deactivated webhook says why; reactivation asks, saying why, then it takes signals again.
    const brokenRow = row(page, 'Broken');
    await brokenRow.getByText(/too many invalid requests within an hour/).waitFor();
    expect(await signal(broken.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).toBe(400);
    await snap(page, 'trader-deactivated-desktop', true);
    await brokenRow.getByRole('button', { name: 'Reactivate webhook Broken' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reactivate webhook' });
    await confirm.getByText(/too many invalid requests within an hour/).waitFor();
    await snap(page, 'trader-reactivate-confirm-desktop');
    await confirm.getByRole('button', { name: 'Reactivate' }).click();
    await confirm.waitFor({ state: 'detached' });
    await brokenRow.getByText('active', { exact: true }).waitFor();
    expect(await brokenRow.getByRole('button', { name: /Reactivate/ }).count()).toBe(0);
    await expect.poll(() => signal(broken.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 2 })).toBe(201);

    expect(errors).toEqual([]);
    await close();
  });

  it('works on a phone: the panel fills the screen and reactivation by keyboard', async () => {
    const user = await createUser('trader-phone');
    const connectorKey = await connectPaper(user);
    await createWebhook(user, connectorKey, 'Phone test', true);
    const broken = await createWebhook(user, connectorKey, 'Phone broken', false);
    await deactivate(user, broken);
    const { page, errors, close } = await openPage(browser(), PHONE);
    await signInPage(page, user);
    await page.goto('/me/connector');

    await row(page, 'Phone test')
      .getByRole('button', { name: /TradingView/ })
      .click();
    const panel = page.getByRole('dialog', { name: 'Connect TradingView · Phone test' });
    await panel.waitFor();
    const box = await panel.locator('.modal-content').boundingBox();
    expect(box?.width).toBe(PHONE.width);
    await panel.getByRole('tab', { name: 'TrendSpider' }).click();
    // The title follows the chosen platform.
    const trendSpider = page.getByRole('dialog', { name: 'Connect TrendSpider · Phone test' });
    await trendSpider.getByLabel('TrendSpider alert').waitFor();
    // Nothing wider than the phone: no sideways scrolling inside the panel.
    const body = trendSpider.locator('.modal-body');
    expect(await body.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await snap(page, 'trader-tradingview-panel-phone');
    await trendSpider.getByRole('button', { name: 'Send test signal' }).click();
    await trendSpider.getByText('Answer: 201').waitFor();
    await snap(page, 'trader-test-signal-phone');
    await page.keyboard.press('Escape');
    await trendSpider.waitFor({ state: 'detached' });

    const reactivate = row(page, 'Phone broken').getByRole('button', { name: 'Reactivate webhook Phone broken' });
    await reactivate.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Reactivate webhook' });
    await confirm.waitFor();
    await snap(page, 'trader-reactivate-confirm-phone');
    await confirm.getByRole('button', { name: 'Reactivate' }).focus();
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await row(page, 'Phone broken').getByText('active', { exact: true }).waitFor();
    await snap(page, 'trader-connectors-phone', true);
    expect(errors).toEqual([]);
    await close();
  });
});
