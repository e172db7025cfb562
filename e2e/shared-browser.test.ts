// Two tabs of one browser share the session token (local storage, SPEC §9): when one tab signs
// out and another person signs in there, a tab still open on the first person's screens must not
// go on showing their data while its requests are the other person's, nor act on one account
// from a page that reads as the other.
import { describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';
import { DESKTOP, useBrowser } from './support/screens.ts';
import { connectPaper, createUser, signInPage } from './support/users.ts';

const browser = useBrowser();

describe('two tabs of one browser', () => {
  it("drops the first person's screens when another person signs in in the other tab", async () => {
    const [alice, bob] = await Promise.all([createUser('tab-alice'), createUser('tab-bob')]);
    await connectPaper(alice);
    const { page: first, close } = await openPage(browser(), DESKTOP);
    await signInPage(first, alice);
    await first.goto('/me/connector');
    const alicesBroker = first.getByRole('article', { name: 'Paper Trading' });
    await alicesBroker.waitFor();

    // The other tab: Alice logs out, Bob signs in with the sign-in form.
    const second = await first.context().newPage();
    await second.goto('/me');
    await second.getByRole('button', { name: 'Logout' }).click();
    await second.waitForURL((url) => url.pathname === '/');
    await second.goto('/signin');
    await second.getByLabel('Email').fill(bob.email);
    await second.getByLabel('Password').fill(bob.password);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The first tab no longer shows Alice's broker (Bob has none), and is Bob's from then on.
    await alicesBroker.waitFor({ state: 'detached' });
    await first.getByRole('link', { name: 'Settings' }).first().click();
    const general = first.getByRole('form', { name: 'General' });
    await general.waitFor();
    expect(await general.getByLabel('Email').inputValue()).toBe(bob.email);
    await close();
  });
});
