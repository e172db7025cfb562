// Launches the system Chromium (scripts/ensure-chromium.mjs found or installed it) with
// playwright-core, with the flags this sandbox needs.
import { type Browser, type BrowserContext, type ConsoleMessage, chromium, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { serverUrl } from './support/server.ts';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH;
  if (!path) throw new Error('CHROMIUM_PATH is not set: run the browser tests through `npm test`');
  return path;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: FLAGS });
}

/** Reports Content Security Policy violations of every page of a context (popups included). */
async function watchCsp(context: BrowserContext, violations: string[]): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
    document.addEventListener('securitypolicyviolation', (e) => {
      report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  context.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
}

/**
 * A new page on the test server; console errors and page errors are collected for assertions.
 * Every journey runs under the server's Content Security Policy: a violation fails the test.
 */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, baseURL: serverUrl() });
  const violations: string[] = [];
  await watchCsp(context, violations);
  const failOnViolations = () => {
    if (violations.length > 0) throw new Error(`Content Security Policy violations:\n${violations.join('\n')}`);
  };
  onTestFinished(failOnViolations);
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return { page, errors, violations, close: () => context.close() };
}
