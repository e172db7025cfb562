// The developer platform in a real browser (issue #16): a professional registers an
// application in settings; a trader, sent to the provider by that application, grants access
// on the consent screen; the application (openid-client, as a third party would) exchanges the
// code with its PKCE verifier and calls userinfo and introspection; the trader sees the
// application under authorized applications and revokes it, which ends its access at once.
// Then the security settings: recovery codes and a password change that ends other sessions.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage } from './browser.ts';
import { mailCount, mailLink } from './server-mail.ts';
import { makeProfessional } from './support/database.ts';
import { connectPaper, createUser, graphql, signInPage } from './support/users.ts';
import { authenticator } from './totp.ts';

let browser: Browser;
let callbackServer: http.Server;
let callbackUrl = '';
beforeAll(async () => {
  browser = await launchBrowser();
  // The third party's redirect URI: a page on loopback, as a developer's machine has.
  callbackServer = http.createServer((_req, res) =>
    res.end('<!doctype html><title>Journal</title><h1>Back in the journal</h1>'),
  );
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://localhost:${(callbackServer.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
});

async function atSettings(page: Page) {
  await page.goto('/me/settings');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
}

describe('developer platform journey', () => {
  it('registers an app, a user consents, the app gets tokens, the user revokes it', async () => {
    const pro = await createUser('pro');
    await makeProfessional(pro.email);
    const developer = await openPage(browser);
    await signInPage(developer.page, pro);
    await atSettings(developer.page);
    await developer.page.getByRole('button', { name: 'Create application' }).click();
    const dialog = developer.page.getByRole('dialog', { name: 'New application' });
    await dialog.getByLabel('Name').fill('Trade Journal');
    await dialog.getByLabel('Description (optional)').fill('Journals every fill');
    await dialog.getByLabel('Callback URL').fill(callbackUrl);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('New secret token:').waitFor();
    const secret = await dialog.getByLabel('New secret token').inputValue();
    const clientId = (await dialog.locator('code').first().textContent()) ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(43);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await developer.page.getByText(`ID ${clientId}`).waitFor();
    expect(developer.errors).toEqual([]);

    // The third party starts an authorization code flow with PKCE.
    const config = await client.discovery(new URL(`${inject('baseUrl')}/oidc`), clientId, secret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: 'openid accounts:read orders:write',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });

    // The trader consents in the browser.
    const trader = await createUser('trader');
    await connectPaper(trader);
    const { page, errors, close } = await openPage(browser);
    await signInPage(page, trader);
    await page.goto(authorizationUrl.href);
    await page.waitForURL(/\/signin\/oauth\?uid=/);
    await page.getByRole('heading', { level: 1, name: 'Connect Trade Journal' }).waitFor();
    await page.getByText('Read the list of your connected brokerage accounts').waitFor();
    await page.getByText('Submit orders on your request').waitFor();
    await page.getByRole('button', { name: 'Grant access' }).click();
    await page.waitForURL((url) => url.href.startsWith(callbackUrl));
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe(state);

    // The application exchanges the code and calls the provider with its token.
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.scope?.split(' ').sort()).toEqual(['accounts:read', 'openid', 'orders:write']);
    const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    const { user } = await graphql<{ user: { key: string } }>(trader.token, '{ user { key } }');
    expect(info.sub).toBe(user.key);
    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({
      active: true,
      client_id: clientId,
    });

    // The application uses the REST API with its token: the trader's accounts, a paper order.
    const apiCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${inject('baseUrl')}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          ...(body ? { 'content-type': 'application/json', 'idempotency-key': 'journal-order-1' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const accounts = await apiCall('GET', '/api/v1/accounts');
    expect(accounts.status).toBe(200);
    const [paper] = accounts.body.data as Array<{ id: string; providerName: string; isTest: boolean }>;
    expect(paper).toMatchObject({ providerName: 'paper', isTest: true });
    const order = { symbol: 'AAPL', action: 'buy', quantity: 3 };
    const placed = await apiCall('POST', `/api/v1/accounts/${paper?.id}/orders`, order);
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ accountId: paper?.id, symbol: 'AAPL', quantity: 3, status: 'filled' });
    // Retried with its Idempotency-Key, the order is answered again, not placed again.
    expect((await apiCall('POST', `/api/v1/accounts/${paper?.id}/orders`, order)).body.id).toBe(placed.body.id);
    // Reading orders was not granted.
    expect((await apiCall('GET', `/api/v1/accounts/${paper?.id}/orders`)).status).toBe(403);
    // The trader's activity names the application on the order and on its answered retry.
    await page.goto('/me');
    const lines = page.getByTestId('trade-line').filter({ hasText: 'AAPL' });
    await expect.poll(() => lines.count()).toBe(2);
    for (const text of await lines.allTextContents()) expect(text).toMatch(/REST APIvia Trade Journal.*buy 3 AAPL/);
    expect(await page.getByText(/^REST API order from Trade Journal \(Paper Trading#/).count()).toBe(2);

    // The trader signs out where the application's library sends them (end_session_endpoint):
    // pages of ours under the strict policy, and the application's grant stays.
    await page.goto(config.serverMetadata().end_session_endpoint ?? '');
    await page.getByRole('heading', { level: 1, name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Signed out' }).waitFor();

    // The developer replaces the client secret (leaked, say): the old one is refused at once, the
    // new one works, and the trader's grant goes on.
    await developer.page.getByRole('button', { name: 'New secret for Trade Journal' }).click();
    const rotate = developer.page.getByRole('dialog', { name: 'New client secret' });
    await rotate.getByRole('button', { name: 'Replace secret' }).click();
    const newSecret = await rotate.getByLabel('New client secret').inputValue();
    await rotate.getByRole('button', { name: 'Done' }).click();
    expect(newSecret).not.toBe(secret);
    expect(developer.errors).toEqual([]);
    await developer.close();
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_client',
    });
    const rotated = await client.discovery(new URL(`${inject('baseUrl')}/oidc`), clientId, newSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const refreshed = await client.refreshTokenGrant(rotated, tokens.refresh_token ?? '');

    // The trader sees the application and revokes it.
    await atSettings(page);
    await page.getByText('You have granted 1 application(s) access to your connected accounts').waitFor();
    await page.getByText(/^Added at /).waitFor();
    await page.getByRole('button', { name: 'Revoke Trade Journal' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('heading', { name: 'Authorized applications' }).waitFor({ state: 'detached' });
    expect(await client.tokenIntrospection(rotated, refreshed.access_token)).toMatchObject({ active: false });
    await expect(client.fetchUserInfo(rotated, refreshed.access_token, client.skipSubjectCheck)).rejects.toThrow();
    await expect(client.refreshTokenGrant(rotated, refreshed.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(errors).toEqual([]);
    await close();
  });

  it('recovery codes sign in in place of the phone; a password change ends the other sessions', async () => {
    const trader = await createUser('recovery');
    const elsewhere = await openPage(browser);
    await signInPage(elsewhere.page, trader);
    const { page, errors, close } = await openPage(browser);
    // Signed in through the form: an init script's token would come back at every page load.
    const signIn = async () => {
      await page.getByLabel('Email').fill(trader.email);
      await page.getByLabel('Password').fill(trader.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await page.goto('/signin');
    await signIn();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const mailsBefore = mailCount();
    await page.goto('/me/settings/two-factor');
    const secret = (await page.getByTestId('passcode-secret').textContent()) ?? '';
    await page.getByLabel('Verification code').fill(await authenticator(secret)());
    await page.getByRole('button', { name: 'Activate' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const codes = await list.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole('link', { name: 'Continue' }).click();
    // Turning the factor on mailed the account's address, with a reset link that turns it off
    // again: a taken session cannot do it unseen, nor lock the owner out (identity.test.ts).
    expect(await mailLink(trader.email, '/auth/password?token=', mailsBefore)).toContain('/auth/password?token=');
    // Logout ends on the landing page (SPEC §2: goes to /); its Sign in leads back.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin$/);

    await signIn();
    await page.waitForURL(/\/signin\/multifactor$/);
    await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/signin\/multifactor\/recall/);
    await page.getByText('9 recovery codes are left.').waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    const newPassword = 'Velvet-Harbor-Orchid-2041?';
    await atSettings(page);
    const form = page.getByRole('form', { name: 'Password' });
    await form.getByLabel('Current password').fill(trader.password);
    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByLabel('New password confirmation').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. You were signed out on your other devices.').waitFor();
    // The first browser's session ended: it is sent to sign in; this one still works.
    await elsewhere.page.goto('/me/settings');
    await elsewhere.page.waitForURL(/\/signin$/);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    // A lost phone does not block a password reset either: a recovery code stands in for the
    // authenticator's code, and is spent.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const beforeReset = mailCount();
    await page.goto('/auth/password/request');
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await page.getByLabel('Email').fill(trader.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByText('You will be sent an email with a password reset link, if the provided information is correct')
      .waitFor();
    await page.goto(await mailLink(trader.email, '/auth/password?token=', beforeReset));
    const resetPassword = 'Copper-Meadow-Lantern-7352!';
    await page.getByLabel('Password', { exact: true }).fill(resetPassword);
    await page.getByLabel('Password confirmation').fill(resetPassword);
    await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
    await page.getByLabel(/Recovery code/).fill(codes[1] ?? '');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(/\/signin$/);
    await page.getByText('Your password has been changed, please sign in.').waitFor();
    // The new password with the next recovery code: two of the ten are spent now.
    await page.getByLabel('Email').fill(trader.email);
    await page.getByLabel('Password').fill(resetPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin\/multifactor$/);
    await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[2] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('7 recovery codes are left.').waitFor();
    expect(errors).toEqual([]);
    await elsewhere.close();
    await close();
  });
});

describe('API reference', () => {
  it('renders /api/docs from the package under the strict policy, asking nothing of another origin', async () => {
    const { page, errors, close } = await openPage(browser);
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(inject('baseUrl')).origin && url.protocol !== 'data:') elsewhere.push(request.url());
    });
    await page.goto('/api/docs');
    await page.getByRole('heading', { name: 'Signal Router API' }).waitFor();
    await page.getByText('List your connected broker accounts').first().waitFor();
    await page.getByText('Orders', { exact: true }).first().click();
    await page.getByText('Place an order').first().waitFor();
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
