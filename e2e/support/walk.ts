// A new trader's first steps, through the screens only (no API short cuts): sign up, confirm the
// email from the mail in the server log, connect Paper Trading, create webhooks.
import type { Locator, Page } from 'playwright-core';
import { mailCount, mailLink } from '../server-mail.ts';

export const WALK_PASSWORD = 'Quartz-Lantern-42!';

/** Signs up on /signup, confirms from the mailed link and lands on the dashboard; the tour is skipped. */
export async function signUpInBrowser(page: Page, email: string): Promise<void> {
  const before = mailCount();
  await page.goto('/signup');
  await page.getByLabel('First name').fill('Walker');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(WALK_PASSWORD);
  await page.getByLabel('Password confirmation').fill(WALK_PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Please check for the confirmation email to continue.', { exact: false }).waitFor();
  // The mailed link names the server's PUBLIC_URL: opened on the page's own origin.
  const link = new URL(await mailLink(email, '/auth/email?token=', before));
  await page.goto(link.pathname + link.search);
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await page.getByRole('alertdialog', { name: 'Welcome to Signal Router' }).waitFor();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Skip tour' }).click();
  await page.getByRole('alertdialog').waitFor({ state: 'detached' });
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

/** Connects Paper Trading from the broker grid of /me/connector; returns its card. */
export async function connectPaperInBrowser(page: Page): Promise<Locator> {
  await page.goto('/me/connector');
  await page.getByRole('button', { name: 'Connect broker' }).click();
  await page.getByLabel('Search brokers').fill('paper');
  await page.getByRole('link', { name: 'Connect Paper Trading' }).click();
  const connect = page.getByRole('dialog', { name: 'Connect Paper Trading' });
  await connect.getByRole('button', { name: 'Connect' }).click();
  await connect.waitFor({ state: 'detached' });
  const paper = card(page, 'Paper Trading');
  await paper.getByRole('heading', { name: 'Paper account' }).waitFor();
  return paper;
}

/** Creates a webhook on the paper account from its card; returns its URL. */
export async function createWebhookInBrowser(page: Page, paper: Locator, name: string, isTest: boolean) {
  await paper.getByRole('button', { name: 'New webhook for Paper account' }).click();
  const form = page.getByRole('form', { name: 'New webhook' });
  await form.getByLabel('Name').fill(name);
  if (isTest) await form.getByLabel('Test webhook').check();
  await form.getByRole('button', { name: 'Create webhook' }).click();
  await form.waitFor({ state: 'detached' });
  return paper.getByLabel(`Webhook URL of ${name}`).inputValue();
}
