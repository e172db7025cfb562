// A webhook's risk controls on its settings in Brokers & Webhooks (issue 22), against the real
// server: invalid settings are refused whole with the server's reason, valid ones saved and
// enforced on the next signal; the kill switch pauses and resumes every webhook; removing every
// control asks first.
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, saveScreen, useBrowser } from './support/screens.ts';
import { createHook, signalAnswer } from './support/signals.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();
const BUY = { symbol: 'AAPL', action: 'buy' };

describe('risk controls', () => {
  it('edits a webhook’s controls, refuses bad settings whole, and pauses every webhook', async () => {
    const user = await createUser('risk');
    const connectorKey = await connectPaper(user);
    const shortKey = await createHook(user, connectorKey);
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/connector');
    const hook = page.getByRole('listitem').filter({ hasText: 'Main' });
    await hook.getByRole('button', { name: 'Risk controls of webhook Main' }).click();
    const form = page.getByRole('form', { name: 'Risk controls of Main' });
    const editor = form.getByLabel('Risk controls (JSON)');

    const bad = {
      maxQuantity: 2,
      tradingWindows: [{ days: ['mon'], from: '16:00', to: '09:30', timeZone: 'America/New_York' }],
    };
    await editor.fill(JSON.stringify(bad));
    await form.getByRole('button', { name: 'Save controls' }).click();
    await form.getByRole('alert').getByText('tradingWindows[0]: ends (09:30) before it starts (16:00)').waitFor();
    // Nothing was saved: a large order still goes through.
    expect((await signalAnswer(shortKey, { ...BUY, quantity: 5 })).status).toBe(201);

    await editor.fill('{"maxQuantity": 2}');
    await form.getByRole('button', { name: 'Save controls' }).click();
    await form.getByRole('status').getByText('Saved').waitFor();
    await hook.getByText('risk controls', { exact: true }).waitFor();
    expect(await editor.inputValue()).toBe('{\n  "maxQuantity": 2\n}');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await saveScreen(page, 'risk-controls-desktop', true);
    // The settings are enforced at once (hook_changed drops the cached webhook).
    await expect
      .poll(async () => (await signalAnswer(shortKey, { ...BUY, quantity: 3 })).body.rule)
      .toBe('maxQuantity');
    expect((await signalAnswer(shortKey, { ...BUY, quantity: 2 })).status).toBe(201);

    const killSwitch = page.getByRole('form', { name: 'Kill switch' });
    await killSwitch.getByLabel('Pause all webhooks: reason').fill('FOMC day');
    await killSwitch.getByRole('button', { name: 'Pause all webhooks' }).click();
    await killSwitch.getByRole('status').getByText('1 webhook paused').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Main' }).getByText('paused', { exact: true }).waitFor();
    await expect
      .poll(async () => (await signalAnswer(shortKey, { ...BUY, quantity: 1 })).body.message)
      .toBe('Webhooks are paused: FOMC day');
    await killSwitch.getByRole('button', { name: 'Resume all webhooks' }).click();
    await killSwitch.getByRole('status').getByText('1 webhook resumed').waitFor();
    await expect
      .poll(async () => (await signalAnswer(shortKey, { ...BUY, quantity: 1, client_id: 'after' })).status)
      .toBe(201);

    // Emptying the controls would remove every limit: it asks first, and Cancel keeps them.
    await editor.fill('');
    await form.getByRole('button', { name: 'Save controls' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove all risk controls?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect((await signalAnswer(shortKey, { ...BUY, quantity: 3, client_id: 'kept' })).body.rule).toBe('maxQuantity');
    await form.getByRole('button', { name: 'Save controls' }).click();
    await confirm.getByRole('button', { name: 'Remove all controls' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    await expect
      .poll(async () => (await signalAnswer(shortKey, { ...BUY, quantity: 3, client_id: 'removed' })).status)
      .toBe(201);
    expect(errors).toEqual([]);
    await close();
  });
});
