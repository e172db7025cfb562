// Brokers & Webhooks against the real server (issue #6 parts 4–6, 9; issue #8 part 4): a new user
// connects Paper Trading from the grid, creates a live and a test webhook, copies a URL, renames
// a hook and an account, opens notifications, deletes a webhook and the broker; and
// connects Schwab through the OAuth popup (the Schwab protocol fake started by global-setup);
// finds Lightspeed, learns why it is unavailable and cannot connect it (issue #23 point 6), and
// likewise Saxo, an OAuth broker this server has no app credentials for.
// Screenshots at desktop and phone sizes go to SCREENS_DIR (default e2e/artifacts/).
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { connectPaper, createUser, graphql, signInPage } from './support/users.ts';
import { createWebhookInBrowser } from './support/walk.ts';

const browser = useBrowser();

async function snap(page: Page, name: string, fullPage = true) {
  // Bootstrap skips its fades with reduced motion: dialogs are pictured fully shown.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await saveScreen(page, name, fullPage);
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

describe('brokers and webhooks', () => {
  it('connects Paper Trading, manages webhooks, notifications and deletes with confirmations', async () => {
    const user = await createUser('connectors');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInPage(page, user);

    await page.goto('/me/connector');
    await page.getByText('No brokers connected yet').waitFor();
    await page.getByRole('button', { name: 'Connect broker' }).click();
    await page.getByLabel('Search brokers').fill('PAPER');
    await expect.poll(() => page.getByRole('list', { name: 'Brokers' }).getByRole('link').count()).toBe(1);
    await snap(page, 'connectors-empty-search-desktop');
    await page.getByRole('link', { name: 'Connect Paper Trading' }).click();
    const connect = page.getByRole('dialog', { name: 'Connect Paper Trading' });
    await connect.waitFor();
    expect(page.url()).toMatch(/\/me\/connector\/paper$/);
    await snap(page, 'connectors-connect-dialog-desktop', false);
    await connect.getByRole('button', { name: 'Connect' }).click();
    await connect.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/me\/connector$/);
    const paper = card(page, 'Paper Trading');
    await paper.getByRole('heading', { name: 'Paper account' }).waitFor();

    // A live and a test webhook.
    for (const [name, isTest] of [
      ['Live alerts', false],
      ['Test alerts', true],
    ] as const) {
      await createWebhookInBrowser(page, paper, name, isTest);
      await paper.getByText(name, { exact: true }).waitFor();
    }
    const testHook = paper.getByRole('listitem').filter({ hasText: 'Test alerts' });
    await testHook.getByText('test', { exact: true }).waitFor();
    await testHook.getByText('Last call: never').waitFor();

    // Copy a URL; a signal to it shows as the last call.
    const liveHook = paper.getByRole('listitem').filter({ hasText: 'Live alerts' });
    const url = await liveHook.getByLabel('Webhook URL of Live alerts').inputValue();
    expect(url).toMatch(new RegExp(`^${inject('baseUrl')}/hook/[0-9A-Za-z]{22}$`));
    await liveHook.getByRole('button', { name: 'Copy URL' }).click();
    await liveHook.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const sent = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
    });
    expect(sent.status).toBe(201);
    // The call time is written with the activity, just after the answer (batched every 200 ms):
    // reload until the screen has it, as a user would.
    await expect
      .poll(async () => {
        await page.reload();
        await liveHook.getByText(/^Last call: /).waitFor();
        return liveHook.getByText(/^Last call: \d{1,2}\/\d{1,2}\/\d{4}, \d{2}:\d{2}$/).count();
      })
      .toBe(1);

    // Rename a hook and the account ('Required' first).
    await liveHook.getByRole('button', { name: 'Rename webhook Live alerts' }).click();
    await page.getByLabel('Webhook name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Required').waitFor();
    await page.getByLabel('Webhook name').fill('Swing alerts');
    await page.getByRole('button', { name: 'Save' }).click();
    await paper.getByText('Swing alerts', { exact: true }).waitFor();
    await paper.getByRole('button', { name: 'Rename account Paper account' }).click();
    await page.getByLabel('Account name').fill('Practice');
    await page.getByLabel('Account name').press('Enter');
    await paper.getByRole('heading', { name: 'Practice' }).waitFor();
    await snap(page, 'connectors-list-desktop');

    // Notifications: paper accounts accept settings (e2e/notifications.test.ts goes further).
    await paper.getByRole('button', { name: 'Notifications for Practice' }).click();
    const notifications = page.getByRole('dialog', { name: 'Notifications · Practice' });
    await notifications.getByLabel('Notification email').waitFor();
    expect(await notifications.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    await notifications.waitFor({ state: 'detached' });

    // Delete the test webhook, then the broker, each after a confirmation.
    await testHook.getByRole('button', { name: 'Delete webhook Test alerts' }).click();
    const deleteHook = page.getByRole('dialog', { name: 'Delete webhook' });
    await deleteHook.getByRole('button', { name: 'Delete' }).click();
    await deleteHook.waitFor({ state: 'detached' });
    await expect.poll(() => paper.getByText('Test alerts', { exact: true }).count()).toBe(0);
    await paper.getByRole('button', { name: 'Delete broker' }).click();
    const deleteBroker = page.getByRole('dialog', { name: 'Delete broker' });
    await deleteBroker.getByText(/also deletes its webhook and the notification settings/).waitFor();
    await snap(page, 'connectors-delete-broker-desktop', false);
    await deleteBroker.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No brokers connected yet').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('reads well on a phone', async () => {
    const user = await createUser('connectors-phone');
    await connectPaper(user);
    const { page, errors, close } = await openPage(browser(), PHONE);
    await signInPage(page, user);
    await page.goto('/me/connector');
    const paper = card(page, 'Paper Trading');
    await paper.getByRole('button', { name: 'New webhook for Paper account' }).click();
    await page.getByRole('form', { name: 'New webhook' }).getByRole('button', { name: 'Create webhook' }).click();
    await paper.getByText('Webhook', { exact: true }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    // Broker names wrap between words, never letter by letter beside a badge ("Inte|racti|ve").
    const brokenTitles = await page.$$eval('.provider-tile-title', (titles) =>
      titles
        .filter((title) => {
          const range = document.createRange();
          range.selectNodeContents(title);
          const lines = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
          return lines > (title.textContent ?? '').trim().split(/\s+/).length;
        })
        .map((title) => title.textContent),
    );
    expect(brokenTitles).toEqual([]);
    await snap(page, 'connectors-list-phone');
    await page.goto('/me/connector/bitmex');
    await page.getByRole('dialog', { name: 'Connect BitMEX' }).waitFor();
    await snap(page, 'connectors-connect-dialog-phone', false);
    expect(errors).toEqual([]);
    await close();
  });

  it('connects Schwab through the authorization popup', async () => {
    const user = await createUser('connectors-schwab');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/connector');
    await page.getByRole('link', { name: 'Connect Schwab (beta)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Schwab' });
    await dialog.waitFor();
    const popupOpened = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Continue to Schwab' }).click();
    const popup = await popupOpened;
    const popupClosed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 30_000 });
    const popupErrors: string[] = [];
    popup.on('pageerror', (error) => popupErrors.push(error.message));
    popup.on('console', (message) => {
      if (message.type() === 'error') popupErrors.push(message.text());
    });
    // The popup may already be gone: the fake approves at once.
    if (!popup.isClosed()) await snap(page, 'connectors-schwab-waiting-desktop', false);
    // The fake's authorize page approves at once and sends the popup to /callback/schwab?code&state.
    await popupClosed;
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/me\/connector$/);
    const schwab = card(page, 'Schwab');
    await schwab.getByText('active', { exact: true }).waitFor();
    await schwab.getByRole('heading', { level: 4 }).first().waitFor();
    await snap(page, 'connectors-schwab-connected-desktop');
    expect(popupErrors).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows an OAuth broker this server has no app for (Saxo) as unavailable, and why', async () => {
    const user = await createUser('connectors-unconfigured');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/connector');
    await page.getByText('No brokers connected yet').waitFor();
    const search = page.getByLabel('Search brokers');
    const grid = page.getByRole('list', { name: 'Brokers' });
    await search.fill('saxo');
    await expect.poll(() => grid.getByRole('link').count()).toBe(1);
    await grid.getByRole('link', { name: 'Saxo (unavailable)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Saxo is unavailable' });
    await dialog
      .getByText(
        'Saxo is not available on this server yet: its operator has not configured it. Please contact support.',
      )
      .waitFor();
    expect(await dialog.getByRole('button', { name: /^(Connect|Continue)/ }).count()).toBe(0);
    await dialog.getByText('Close', { exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // Schwab, whose app this server has (global-setup), is offered.
    await search.fill('schwab');
    await grid.getByRole('link', { name: /^Connect Schwab/ }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('shows Lightspeed as unavailable, says why, and offers no way to connect it', async () => {
    const user = await createUser('connectors-lightspeed');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/connector');
    await page.getByText('No brokers connected yet').waitFor();
    await page.getByLabel('Search brokers').fill('light');
    const grid = page.getByRole('list', { name: 'Brokers' });
    await expect.poll(() => grid.getByRole('link').count()).toBe(1);
    const tile = grid.getByRole('link', { name: 'Lightspeed (unavailable)' });
    await tile.getByText('Unavailable', { exact: true }).waitFor();
    await snap(page, 'connectors-unavailable-tile-desktop', false);
    await tile.click();
    const dialog = page.getByRole('dialog', { name: 'Lightspeed is unavailable' });
    await dialog.waitFor();
    expect(page.url()).toMatch(/\/me\/connector\/lightspeed$/);
    await dialog.getByText(/publishes no order API that a web service can call/).waitFor();
    await dialog.getByText(/connect a broker with an order API instead/).waitFor();
    expect(await dialog.getByRole('textbox').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /^(Connect|Continue)/ }).count()).toBe(0);
    await snap(page, 'connectors-unavailable-dialog-desktop', false);
    await dialog.getByText('Close', { exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/me\/connector$/);
    await page.getByText('No brokers connected yet').waitFor();

    // The server refuses too: a connection asked for directly is a clear error, and none is made.
    for (const mutation of [
      'mutation { connectorCreate(providerName: "lightspeed") { type } }',
      'mutation { connectorActivate(providerName: "lightspeed", credentials: []) { key } }',
    ]) {
      await expect(graphql(user.token, mutation)).rejects.toThrow(
        /^GraphQL: Lightspeed: cannot be connected\. Lightspeed publishes no order API/,
      );
    }
    const { connectors } = await graphql<{ connectors: unknown[] }>(user.token, '{ connectors { key } }');
    expect(connectors).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
