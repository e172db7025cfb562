// A trader on a small phone (375×812) taps the menu, the dashboard's activity filters and chart
// interval, and a broker card's buttons: each control is at least Bootstrap's regular 38 px tall
// (the small variants, 31 px, are hard to hit), none scrolls sideways; dialogs fit the screen.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { useBrowser } from './support/screens.ts';
import { createHook, signal } from './support/signals.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();
const SMALL_PHONE = { width: 375, height: 812 };
const MIN_TAP = 38;

/** Visible buttons, fields and chart-interval labels shorter than MIN_TAP, as "text height". */
function shortControls(page: Page): Promise<string[]> {
  const selector = 'button, a.btn, input:not([type=radio]):not([type=checkbox]), select, .btn-group .btn';
  return page.$$eval(
    selector,
    (controls, min) =>
      controls
        .filter((control) => {
          const box = control.getBoundingClientRect();
          return box.width > 0 && box.right > 0 && box.height > 0 && box.height < min;
        })
        .filter((control) => !control.matches('.btn-link.p-0, .visually-hidden-focusable'))
        .map(
          (control) =>
            `${control.getAttribute('aria-label') ?? control.textContent?.trim()} ${control.getBoundingClientRect().height}`,
        ),
    MIN_TAP,
  );
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A trader's dashboard at phone size, after one signal of theirs shows in the activity. */
async function dashboardAfterOneSignal(name: string) {
  const user = await createUser(name);
  const shortKey = await createHook(user, await connectPaper(user));
  expect(await signal(shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).toBe(201);
  const opened = await openPage(browser(), SMALL_PHONE);
  await signInPage(opened.page, user);
  await opened.page.goto('/me');
  await opened.page.getByText(`Webhook ${shortKey}`).first().waitFor();
  return { ...opened, shortKey };
}

describe('a phone of 375×812', () => {
  it('gives the menu, the activity filters and the broker card tap targets of regular height', async () => {
    const { page, errors, close } = await dashboardAfterOneSignal('phone-taps');
    await page.getByLabel('Result').waitFor();
    await page.getByRole('radiogroup', { name: 'Chart interval' }).waitFor();
    expect(await shortControls(page)).toEqual([]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);

    await page.goto('/me/connector');
    await page.getByRole('button', { name: 'Notifications for Paper account' }).waitFor();
    expect(await shortControls(page)).toEqual([]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("gives the playground's pickable values (quantity 1, 10, 0.5…) a finger's room each", async () => {
    const user = await createUser('phone-picks');
    const { page, errors, close } = await openPage(browser(), SMALL_PHONE);
    await signInPage(page, user);
    await page.goto('/me/documentation');
    await page.getByTitle('Put quantity 10 into the order').waitFor();
    const tiny = await page.$$eval(
      'button[title^="Put "]',
      (picks, min) =>
        picks
          .map((pick) => ({ text: pick.textContent, box: pick.getBoundingClientRect() }))
          .filter(({ box }) => box.height < min || box.width < min)
          .map(({ text, box }) => `${text} ${Math.round(box.width)}x${Math.round(box.height)}`),
      MIN_TAP,
    );
    expect(tiny).toEqual([]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("keeps a long connect dialog's Connect button on the screen (Interactive Brokers)", async () => {
    const user = await createUser('phone-connect');
    const { page, errors, close } = await openPage(browser(), SMALL_PHONE);
    await signInPage(page, user);
    await page.goto('/me/connector/ibkr');
    const dialog = page.getByRole('dialog', { name: 'Connect Interactive Brokers' });
    await dialog.waitFor();
    const bottom = (locator: typeof dialog) => locator.evaluate((element) => element.getBoundingClientRect().bottom);
    expect(await bottom(dialog.locator('.modal-content'))).toBeLessThanOrEqual(SMALL_PHONE.height);
    expect(await bottom(dialog.getByRole('button', { name: 'Connect', exact: true }))).toBeLessThanOrEqual(
      SMALL_PHONE.height,
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('gives the menu button and the × of the menu and of a dialog square tap targets', async () => {
    const user = await createUser('phone-close');
    await connectPaper(user);
    const { page, errors, close } = await openPage(browser(), SMALL_PHONE);
    await signInPage(page, user);
    await page.goto('/me/connector');
    // The shorter side of a control, in px.
    const side = (locator: Locator) =>
      locator.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return Math.min(box.width, box.height);
      });
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    expect(await side(menuButton)).toBeGreaterThanOrEqual(MIN_TAP);
    await menuButton.click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('navigation', { name: 'Main' }) });
    expect(await side(drawer.getByRole('button', { name: 'Close' }))).toBeGreaterThanOrEqual(MIN_TAP);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Notifications for Paper account' }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications · Paper account' });
    await panel.getByLabel('Notification email').waitFor();
    expect(await side(panel.getByRole('button', { name: 'Close' }).first())).toBeGreaterThanOrEqual(MIN_TAP);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('text links and webhook keys on a phone of 375×812', () => {
  const FINGER = 40;
  /** Heights of the visible links/buttons named `name` under 40 px, as "name height". */
  const shortLinks = (page: Page, name: string | RegExp) =>
    page
      .getByRole('link', { name })
      .or(page.getByRole('button', { name }))
      .evaluateAll(
        (links, min) =>
          links
            .map((link) => link.getBoundingClientRect())
            .filter((box) => box.width > 0 && box.height < min)
            .map((box) => box.height),
        FINGER,
      );

  it("gives an account's Rename, the footer links and the sign-in screens' links 40 px targets", async () => {
    const user = await createUser('phone-links');
    await connectPaper(user);
    const { page, errors, close } = await openPage(browser(), SMALL_PHONE);
    await page.goto('/signin');
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    expect(await shortLinks(page, 'Forgot your password?')).toEqual([]);
    expect(await shortLinks(page, 'Create an account')).toEqual([]);
    await page.goto('/auth/password/request');
    await page.getByRole('link', { name: 'Back to sign in' }).waitFor();
    expect(await shortLinks(page, 'Back to sign in')).toEqual([]);
    await signInPage(page, user);
    await page.goto('/me/connector');
    await page
      .getByRole('button', { name: /^Rename account / })
      .first()
      .waitFor();
    expect(await shortLinks(page, /^Rename account /)).toEqual([]);
    for (const name of ['General FAQs', 'Contact Support', 'Terms of service', 'Privacy policy']) {
      expect({ name, short: await shortLinks(page, name) }).toEqual({ name, short: [] });
    }
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("keeps a webhook key on one line in the dashboard's activity rows, whole in its title", async () => {
    const { page, errors, close, shortKey } = await dashboardAfterOneSignal('phone-key');
    // The key's characters in each activity row sit on one line: never broken in the middle.
    const lines = await page.$$eval(
      'table td',
      (cells, wanted) =>
        cells.flatMap((cell) => {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          const counts: number[] = [];
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.textContent?.indexOf(wanted) ?? -1;
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + wanted.length);
            counts.push(new Set(Array.from(range.getClientRects()).map((box) => Math.round(box.top))).size);
          }
          return counts;
        }),
      shortKey,
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((count) => count === 1)).toBe(true);
    const key = page.locator('table').getByTitle(shortKey, { exact: true }).first();
    expect(await key.textContent()).toBe(shortKey);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await close();
  });
});
