// The connection drops while a trader submits a form: the page says so in one clear sentence (not
// the browser's 'Failed to fetch'), keeps what was typed, and the same button works once the
// connection is back, creating one thing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREACHABLE_TEXT } from '../apps/web/src/lib/unreachable.ts';
import { openPage } from './browser.ts';
import { type DropProxy, startDropProxy } from './support/drop-proxy.ts';
import { DESKTOP, useBrowser } from './support/screens.ts';
import { serverLogFile, serverUrl, targetServer } from './support/server.ts';
import { createUser, graphql, signInPage } from './support/users.ts';

const browser = useBrowser();
let proxy: DropProxy;
beforeAll(async () => {
  proxy = await startDropProxy(serverUrl());
  targetServer({ baseUrl: proxy.url, logFile: serverLogFile() });
});
afterAll(() => proxy?.close());

describe('a form submitted while the connection is down', () => {
  it('says the server could not be reached, keeps the input, and creates once when retried', async () => {
    const user = await createUser('offline');
    const { page, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/settings');
    await page.getByText('No tokens yet.').waitFor();
    const name = page.getByLabel('Token name');
    await name.fill('Trading bot');

    proxy.drop();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText(UNREACHABLE_TEXT).waitFor();
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    expect(await name.inputValue()).toBe('Trading bot');

    proxy.restore();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText(UNREACHABLE_TEXT).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Trading bot' }).first().waitFor();
    const { userTokens } = await graphql<{ userTokens: unknown[] }>(user.token, '{ userTokens { key } }');
    expect(userTokens).toHaveLength(1);
    await close();
  });
});
