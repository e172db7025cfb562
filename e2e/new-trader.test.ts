// Issue #21 point 8, the held-out walk: a new trader signs up in the browser (no seeded user),
// connects Paper Trading and creates webhooks on the screens, pastes TradingView's strategy alert
// (as TradingView fills it in) into an alert that fires at the test webhook, watches it arrive
// without reloading, filters the activity by result, webhook, broker, symbol and date, opens the
// broker request, sees 'Reconnecting…' while the live stream is down and 'Live' once it is back,
// and reactivates a webhook the server turned off — at desktop and phone sizes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { type DropProxy, startDropProxy } from './support/drop-proxy.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { serverLogFile, serverUrl, targetServer } from './support/server.ts';
import { tradingViewAlert } from './support/signals.ts';
import { connectPaperInBrowser, createWebhookInBrowser, signUpInBrowser } from './support/walk.ts';

const browser = useBrowser();
// The pages go through a proxy whose connections the walk cuts to drop the live stream.
let proxy: DropProxy;
beforeAll(async () => {
  proxy = await startDropProxy(serverUrl());
  targetServer({ baseUrl: proxy.url, logFile: serverLogFile() });
});
afterAll(() => proxy?.close());

/** What TradingView puts in place of the strategy alert's placeholders when an order fills. */
const TRADINGVIEW_VALUES: Record<string, string> = {
  '{{ticker}}': 'AAPL',
  '{{strategy.order.action}}': 'buy',
  '{{strategy.order.contracts}}': '2',
  '{{close}}': '187.5',
  '{{strategy.order.id}}': 'Long',
  '{{timenow}}': new Date().toISOString(),
};

const fill = (template: string, values: Record<string, string>) =>
  Object.entries(values).reduce((text, [placeholder, value]) => text.split(placeholder).join(value), template);

const lines = (page: Page) => page.getByTestId('trade-line');
const line = (page: Page, text: string) => lines(page).filter({ hasText: text });

async function snap(page: Page, name: string, size: string, fullPage = false) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await saveScreen(page, `walk-${name}-${size}`, fullPage);
}

/** The activity after a filter change: the lines' texts once they settle on `count`. */
async function expectLines(page: Page, count: number) {
  await expect.poll(() => lines(page).count(), { timeout: 10_000 }).toBe(count);
}

async function walk(viewport: { width: number; height: number }, size: string) {
  const email = `walk-${size}-${Date.now()}@example.test`;
  const { page, errors, close } = await openPage(browser(), viewport);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

  // Sign up, confirm, connect the paper broker and create a test and a live webhook.
  await signUpInBrowser(page, email);
  await snap(page, 'dashboard-new', size);
  const paper = await connectPaperInBrowser(page);
  const testUrl = await createWebhookInBrowser(page, paper, 'TV test', true);
  const liveUrl = await createWebhookInBrowser(page, paper, 'TV live', false);

  // The TradingView panel of the test webhook: the strategy alert to paste into TradingView.
  await page
    .getByRole('listitem')
    .filter({ has: page.getByText('TV test', { exact: true }) })
    .getByRole('button', { name: /TradingView/ })
    .click();
  const panel = page.getByRole('dialog', { name: 'Connect TradingView · TV test' });
  const template = await panel.getByLabel('Strategy alert').inputValue();
  expect(template).toContain('{{strategy.order.action}}');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });

  // The dashboard, live; the alert fires: it appears without a reload.
  await page.goto('/me');
  await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor();
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  const message = fill(template, TRADINGVIEW_VALUES);
  expect(message).not.toContain('{{');
  expect(await tradingViewAlert(testUrl, message)).toBe(201);
  const testLine = line(page, 'TV test');
  await testLine.waitFor();
  expect(await testLine.getByTestId('trade-result').textContent()).toBe('test · not sent');
  expect(await testLine.textContent()).toContain('buy 2 AAPL');
  await snap(page, 'alert-arrived', size, true);

  // Two more from the live webhook: one filled at the paper broker, one refused (no quantity).
  const live = { ...TRADINGVIEW_VALUES, '{{ticker}}': 'MSFT', '{{strategy.order.id}}': 'Live' };
  expect(await tradingViewAlert(liveUrl, fill(template, live))).toBe(201);
  expect(await tradingViewAlert(liveUrl, JSON.stringify({ symbol: 'TSLA', action: 'buy' }))).toBe(400);
  await line(page, 'TSLA').waitFor();
  await expect.poll(() => line(page, 'MSFT').getByTestId('trade-result').textContent()).toBe('filled');
  expect(await line(page, 'TSLA').getByTestId('trade-result').textContent()).toBe('refused');
  expect(loads).toBe(0);

  // Filters: result, webhook, broker, symbol, date; each cleared before the next.
  const clear = async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectLines(page, 3);
  };
  await page.getByLabel('Result').selectOption({ label: 'refused' });
  await expectLines(page, 1);
  expect(await lines(page).textContent()).toContain('TSLA');
  await clear();
  await page.getByLabel('Result').selectOption({ label: 'test · not sent' });
  await expectLines(page, 1);
  expect(await lines(page).textContent()).toContain('TV test');
  await clear();
  await page.getByLabel('Webhook').selectOption({ label: 'TV live' });
  await expectLines(page, 2);
  await clear();
  await page.getByLabel('Broker').selectOption({ label: 'Paper Trading' });
  await expectLines(page, 3);
  await clear();
  await page.getByLabel('Symbol').fill('MSFT');
  await expectLines(page, 1);
  expect(await lines(page).textContent()).toContain('MSFT');
  await snap(page, 'filtered-symbol', size, true);
  await clear();
  const today = await page.evaluate(() => new Date().toLocaleDateString('sv'));
  const yesterday = await page.evaluate(() => new Date(Date.now() - 86_400_000).toLocaleDateString('sv'));
  await page.getByLabel('Date').fill(yesterday);
  await page.getByText('No actions found').waitFor();
  await expectLines(page, 0);
  await snap(page, 'filtered-empty', size, true);
  await page.getByLabel('Date').fill(today);
  await expectLines(page, 3);
  await clear();

  // The filled order's detail, by keyboard: the request, normalized order, broker request, answer.
  const row = page.getByRole('row').filter({ has: line(page, 'MSFT') });
  await row.getByRole('button', { expanded: false }).focus();
  await page.keyboard.press('Enter');
  const details = page.getByTestId('order-call');
  expect(await details.getByTestId('order-call-broker-request').textContent()).toMatch(/^CALL placeOrder\n/);
  expect(await details.getByTestId('order-call-result').textContent()).toContain('filled');
  await snap(page, 'detail', size, true);

  // The live stream drops: 'Reconnecting…'; it comes back: 'Live', and alerts flow again.
  const errorsBefore = errors.length;
  proxy.drop();
  await page.getByTestId('live-status').filter({ hasText: 'Reconnecting…' }).waitFor();
  // Scrolled down to the detail, a phone still tells it, at the bottom of the screen.
  if (viewport.width === PHONE.width) await page.getByTestId('live-status-floating').waitFor();
  await snap(page, 'reconnecting', size);
  proxy.restore();
  await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
  expect(await page.getByText('Reconnecting…').count()).toBe(0);
  expect(await page.getByTestId('live-status-floating').count()).toBe(0);
  errors.splice(errorsBefore); // the loads the cut failed
  const later = { ...TRADINGVIEW_VALUES, '{{ticker}}': 'NVDA', '{{strategy.order.id}}': 'Later' };
  expect(await tradingViewAlert(testUrl, fill(template, later))).toBe(201);
  await line(page, 'NVDA').waitFor();
  expect(loads).toBe(0);

  // Too many invalid alerts turn the live webhook off; the trader reads why and reactivates it.
  for (let i = 0; i < 50; i++) await tradingViewAlert(liveUrl, '{"symbol":"AAPL","action":"buy"}');
  await page.goto('/me/connector');
  const liveRow = page.getByRole('listitem').filter({ has: page.getByText('TV live', { exact: true }) });
  await liveRow.getByText(/too many invalid requests within an hour/).waitFor();
  expect(await tradingViewAlert(liveUrl, fill(template, live))).toBe(400);
  await snap(page, 'deactivated', size, true);
  await liveRow.getByRole('button', { name: 'Reactivate webhook TV live' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reactivate webhook' });
  await confirm.getByText(/too many invalid requests within an hour/).waitFor();
  await snap(page, 'reactivate-confirm', size);
  await confirm.getByRole('button', { name: 'Reactivate' }).click();
  await confirm.waitFor({ state: 'detached' });
  await liveRow.getByText('active', { exact: true }).waitFor();
  const again = { ...live, '{{strategy.order.id}}': 'Again' };
  await expect.poll(() => tradingViewAlert(liveUrl, fill(template, again))).toBe(201);

  expect(errors).toEqual([]);
  if (viewport.width === PHONE.width) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  }
  await close();
}

describe('a new trader, from sign-up to a reactivated webhook', () => {
  it('walks it on a desktop', () => walk(DESKTOP, 'desktop'), 180_000);
  it('walks it on a phone', () => walk(PHONE, 'phone'), 180_000);
});
