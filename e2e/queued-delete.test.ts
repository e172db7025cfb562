// Deleting a webhook that holds signals queued for its trading window (outsideWindow: "queue"),
// against the real server: the confirmation says they will not be placed, and once deleted the
// activity ends each one's 'queued' entry with a cancel that says why.
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, useBrowser } from './support/screens.ts';
import { createWebhook, signalAnswer } from './support/signals.ts';
import { connectPaper, createUser, graphql, signInPage } from './support/users.ts';

const browser = useBrowser();
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

describe('deleting a webhook with queued signals', () => {
  it('warns that its queued signals will not be placed, and logs them cancelled', async () => {
    const user = await createUser('queued-delete');
    const hook = await createWebhook(user, await connectPaper(user));
    // Windows on every day but today (UTC): a signal now is queued for the next one.
    const days = DAYS.filter((_, i) => i !== new Date().getUTCDay());
    const rules = { tradingWindows: [{ days, from: '00:00', to: '24:00', timeZone: 'UTC' }], outsideWindow: 'queue' };
    await graphql(user.token, 'mutation ($k: String!, $r: String) { hookUpdate(key: $k, rules: $r) { key } }', {
      k: hook.key,
      r: JSON.stringify(rules),
    });
    for (const quantity of [1, 2]) {
      const answer = await signalAnswer(hook.shortKey, { symbol: 'AAPL', action: 'buy', quantity });
      expect(answer.status).toBe(202);
    }

    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/connector');
    await page.getByRole('button', { name: 'Delete webhook Main' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete webhook' });
    await dialog.getByText('Its 2 signals queued until its trading window opens will not be placed either.').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/me');
    await page
      .getByText(/^Queued signal \S+ cancelled: webhook deleted$/)
      .first()
      .waitFor();
    expect(await page.getByText(/cancelled: webhook deleted/).count()).toBe(2);
    expect(errors).toEqual([]);
    await close();
  });
});
