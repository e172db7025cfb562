// A trader keeps several tabs of the dashboard open. Over HTTP/1.1 a browser opens at most six
// connections to one host, and a live stream holds one for as long as its tab is open: one stream
// per tab would leave no connection for the seventh tab's (or another tab's) requests. The tabs share
// one stream instead, and every tab still follows new activity live.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, useBrowser } from './support/screens.ts';
import { createWebhook, signalAnswer } from './support/signals.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

const TABS = 7;

async function liveDashboard(page: Page) {
  await page.goto('/me');
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor();
}

describe('several tabs of the dashboard', () => {
  it('all load and follow new activity live, more tabs than a browser opens connections', async () => {
    const user = await createUser('live-tabs');
    const connectorKey = await connectPaper(user);
    const hook = await createWebhook(user, connectorKey, 'Tabs hook', true);
    const { page: first, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(first, user);
    await liveDashboard(first);
    const tabs = [first];
    for (let i = 1; i < TABS; i++) {
      const tab = await first.context().newPage();
      await liveDashboard(tab);
      tabs.push(tab);
    }

    expect((await signalAnswer(hook.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).status).toBe(201);
    for (const tab of tabs) await tab.getByTestId('trade-line').filter({ hasText: 'Tabs hook' }).waitFor();

    // The tab holding the stream closes: another takes it over, and the others still follow.
    await first.close();
    const rest = tabs.slice(1);
    expect((await signalAnswer(hook.shortKey, { symbol: 'MSFT', action: 'buy', quantity: 1 })).status).toBe(201);
    for (const tab of rest) await tab.getByTestId('trade-line').filter({ hasText: 'MSFT' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
