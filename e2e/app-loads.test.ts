// The first journey: a new visitor opens the app on the landing page; unknown paths and the
// error screens behave as SPEC §2 says.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('the app loads', () => {
  it('shows a signed-out visitor the landing page at /, with a way to sign in', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /TradingView alerts/ }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin$/);
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('runs under the strict Content Security Policy, whose violations the harness reports', async () => {
    const { page, violations, close } = await openPage(browser);
    const response = await page.goto('/signin');
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    expect(violations).toEqual([]);
    // An injected inline script is refused, and reported.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => 'injected' in window)).toBe(false);
    expect(violations[0]).toMatch(/script-src/);
    // Reported and checked: this journey's violation was the point of it.
    violations.length = 0;
    await close();
  });

  it('redirects an unknown path to /me, which asks to sign in', async () => {
    const { page, close } = await openPage(browser);
    await page.goto('/no/such/page');
    await page.waitForURL(/\/signin/);
    await close();
  });

  it('renders an honest page on a phone-sized screen', async () => {
    const { page, errors, close } = await openPage(browser, { width: 390, height: 844 });
    await page.goto('/terms-of-service');
    await expect(page.getByRole('heading').first().textContent()).resolves.toMatch(/terms/i);
    expect(errors).toEqual([]);
    await close();
  });
});
