// The notifications panel against the real server (issue #17 point 6): a trader adds an email
// and a webhook to a paper account, picks events, copies the signing secret shown once, sends
// test notifications, watches them arrive in the delivery log and re-sends one. The webhook goes
// to a local receiver that verifies every request with the `standardwebhooks` package.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../apps/server/test/webhook-receiver.ts';
import { openPage } from './browser.ts';
import { mailCount, mailLink } from './server-mail.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { serverUrl } from './support/server.ts';
import { createHook, signal } from './support/signals.ts';
import { connectPaper, createUser, graphql, signInPage } from './support/users.ts';

const browser = useBrowser();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

async function snap(page: Page, name: string) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await saveScreen(page, name, false);
}

async function openPanel(page: Page): Promise<Locator> {
  await page.goto('/me/connector');
  await page.getByRole('button', { name: 'Notifications for Paper account' }).click();
  const panel = page.getByRole('dialog', { name: 'Notifications · Paper account' });
  await panel.getByLabel('Notification email').waitFor();
  return panel;
}

/** The delivery log's rows (the panel refreshes it while a delivery waits). */
const logRows = (panel: Locator) =>
  panel.getByRole('row').filter({ has: panel.page().getByRole('button', { name: /^Re-send/ }) });

describe('notifications panel', () => {
  it('adds email and webhook settings, shows the secret once, tests, logs and re-sends', async () => {
    const user = await createUser('notify');
    await connectPaper(user);
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInPage(page, user);
    const panel = await openPanel(page);

    await panel.getByRole('checkbox', { name: 'Email', exact: true }).check();
    expect(await panel.getByLabel('Notification email').inputValue()).toBe(user.email);
    await panel.getByRole('checkbox', { name: 'Webhook', exact: true }).check();
    await panel.getByLabel('Notification webhook URL').fill(`${receiver.url}/notify`);
    // The webhook hears only order rejections and refused signals.
    for (const event of [
      'Order placed',
      'Order filled',
      'Connection expiring',
      'Connection deactivated',
      'Credits low',
      'Credits exhausted',
    ]) {
      await panel.getByLabel(`${event} by webhook`).uncheck();
    }
    await snap(page, 'notifications-panel-form-desktop');
    await panel.getByRole('button', { name: 'Save' }).click();

    const secretField = panel.getByLabel('Webhook signing secret');
    receiver.secret = await secretField.inputValue();
    expect(receiver.secret).toMatch(/^whsec_/);
    await panel.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(receiver.secret);
    await snap(page, 'notifications-panel-secret-desktop');
    await panel.getByRole('button', { name: 'Done' }).click();
    await secretField.waitFor({ state: 'detached' });

    // Test notifications: the webhook arrives signed, the email is written to the log (no SMTP_URL here).
    await panel.getByRole('button', { name: 'Send test webhook' }).click();
    const [test] = await receiver.waitFor(0);
    expect(test?.verifyError).toBeNull();
    expect(test?.payload?.type).toBe('notification.test');
    await panel.getByRole('button', { name: 'Send test email' }).click();
    await expect.poll(() => logRows(panel).filter({ hasText: 'Delivered' }).count(), { timeout: 15_000 }).toBe(1);
    // Without SMTP_URL the email is only written to the log: its row says so, never "Delivered".
    await expect.poll(() => logRows(panel).filter({ hasText: 'no mail server' }).count(), { timeout: 15_000 }).toBe(1);
    expect(await logRows(panel).filter({ hasText: 'Webhook' }).first().textContent()).toMatch(
      /Test notification.*Delivered.*1.*200/,
    );
    await logRows(panel).last().scrollIntoViewIfNeeded();
    await snap(page, 'notifications-panel-log-desktop');
    // Each row's Re-send reads on one line (it broke at its hyphen beside a long response).
    for (const button of await panel.getByRole('button', { name: /^Re-send/ }).all()) {
      const lineHeight = await button.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
      expect((await button.boundingBox())?.height).toBeLessThan(lineHeight * 1.5);
    }

    // Re-send the webhook: the same webhook-id again.
    await logRows(panel)
      .filter({ hasText: 'Webhook' })
      .first()
      .getByRole('button', { name: /^Re-send/ })
      .click();
    const [again] = await receiver.waitFor(1);
    expect(again?.id).toBe(test?.id);
    expect(again?.verifyError).toBeNull();

    // The saved settings come back when the panel opens again, and the secret is not shown again.
    await page.keyboard.press('Escape');
    const reopened = await openPanel(page);
    expect(await reopened.getByLabel('Credits low by webhook').isChecked()).toBe(false);
    expect(await reopened.getByLabel('Order rejected or failed by webhook').isChecked()).toBe(true);
    expect(await reopened.getByLabel('Webhook signing secret').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("opens an order mail's link on that signal's activity entry", async () => {
    const user = await createUser('notify-link');
    const connectorKey = await connectPaper(user);
    const { connectors } = await graphql<{ connectors: Array<{ key: string; accounts: string }> }>(
      user.token,
      'query { connectors { key accounts } }',
    );
    const accounts = connectors.find((c) => c.key === connectorKey)?.accounts ?? '[]';
    const accountId = (JSON.parse(accounts) as Array<{ id: string }>)[0]?.id ?? '';
    await graphql(
      user.token,
      'mutation($k: String!, $a: String!, $m: String!) { notificationCreate(connectorKey: $k, accountId: $a, type: 2, metadata: $m) { key } }',
      { k: connectorKey, a: accountId, m: JSON.stringify({ email: user.email, events: ['order.placed'] }) },
    );
    const { hookCreate } = await graphql<{ hookCreate: { shortKey: string } }>(
      user.token,
      'mutation($k: String!, $a: String!) { hookCreate(connectorKey: $k, accountId: $a, name: "Swing") { shortKey } }',
      { k: connectorKey, a: accountId },
    );
    const before = mailCount();
    const answer = await fetch(`${serverUrl()}/hook/${hookCreate.shortKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 3 }),
    });
    expect(answer.status).toBe(201);
    const link = await mailLink(user.email, '/me?signal=', before);
    const signalId = new URL(link).searchParams.get('signal') ?? '';
    expect(signalId).not.toBe('');

    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto(link);
    await page.getByRole('heading', { name: `Activity of signal ${signalId}` }).waitFor();
    const response = page.getByTestId('order-call-response');
    await response.waitFor();
    expect(await response.textContent()).toContain('"status": "filled"');
    expect(await page.getByTestId('order-call').textContent()).toContain('"quantity": 3');
    await snap(page, 'notifications-link-activity-desktop');
    await page.getByRole('link', { name: 'Show all activity' }).click();
    await page.getByRole('heading', { name: 'Activity', exact: true }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it("shows a signal's deliveries in the open panel as the signal arrives", async () => {
    const user = await createUser('notify-live');
    const shortKey = await createHook(user, await connectPaper(user));
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    const panel = await openPanel(page);
    await panel.getByRole('checkbox', { name: 'Email', exact: true }).check();
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('Saved.').waitFor();
    await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor();
    expect(await logRows(panel).count()).toBe(0);

    // The trader keeps the panel open while an alert fills: its order mails show up in the log.
    expect(await signal(shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).toBe(201);
    await expect.poll(() => logRows(panel).filter({ hasText: 'Order filled' }).count(), { timeout: 15_000 }).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });

  it('reads well on a phone', async () => {
    const user = await createUser('notify-phone');
    await connectPaper(user);
    const { page, errors, close } = await openPage(browser(), PHONE);
    await signInPage(page, user);
    const panel = await openPanel(page);
    await panel.getByRole('checkbox', { name: 'Email', exact: true }).check();
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('button', { name: 'Send test email' }).click();
    await expect.poll(() => logRows(panel).filter({ hasText: 'no mail server' }).count(), { timeout: 15_000 }).toBe(1);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await snap(page, 'notifications-panel-phone');
    expect(errors).toEqual([]);
    await close();
  });
});
