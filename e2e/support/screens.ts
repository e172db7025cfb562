// The browser and screenshot set-up shared by the screen-by-screen e2e tests.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../browser.ts';

/** Where screenshots land: SCREENS_DIR, else e2e/artifacts/ (git-ignored; CI keeps the folder). */
export const SCREENS = process.env.SCREENS_DIR ?? path.resolve(import.meta.dirname, '../artifacts');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** One browser for the file's tests, launched before them and closed after; call at top level. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  return () => {
    if (!browser) throw new Error('the browser is not launched yet');
    return browser;
  };
}

/** A screenshot to SCREENS/<name>.png. */
export async function saveScreen(page: Page, name: string, fullPage: boolean): Promise<void> {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}/${name}.png`, fullPage });
}
