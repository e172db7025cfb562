// The end-to-end journey of a broker against its protocol fake, through the server as a user
// meets it: connect (GraphQL connectorCreate then connectorActivate, or Schwab's OAuth consent),
// create a live hook, send a signal to /hook/:shortKey, and send the same body again.
import { expect } from 'vitest';
import type { ProtocolFake } from '../../../packages/brokers/src/core/protocol-fake.ts';
import { insertTestUser, type TestApp } from './app.ts';
import { type ConnectorAnswer, connect, gql, HOOK_FIELDS } from './connector-fixtures.ts';
import { balanceOf, eventually, postSignal, signalRows } from './signal-fixtures.ts';

export interface Trader {
  userId: number;
  headers: Record<string, string>;
}

/** A confirmed user with an accounts row holding 5 signals. */
export async function trader(t: TestApp, email: string): Promise<Trader> {
  const { id: userId, headers } = await insertTestUser(t.services, email);
  await t.services.db.$client.query('insert into accounts (user_id, balance, credits) values ($1, 5, 5)', [userId]);
  return { userId, headers };
}

interface Creation {
  type: string;
  credentials: string[];
  requestUrl: string | null;
  redirectUrl: string | null;
  metadata: string;
}

export async function connectorCreate(t: TestApp, user: Trader, providerName: string): Promise<Creation> {
  const answer = await gql<{ connectorCreate: Creation }>(
    t,
    user.headers,
    'mutation($p: String!) { connectorCreate(providerName: $p) { type credentials requestUrl redirectUrl metadata } }',
    { p: providerName },
  );
  if (!answer.data) throw new Error(`connectorCreate ${providerName} failed: ${answer.error?.message}`);
  return answer.data.connectorCreate;
}

/** connectorCreate (the credential form, in `credentials`' order) then connectorActivate. */
export async function connectWithCredentials(
  t: TestApp,
  user: Trader,
  providerName: string,
  credentials: Record<string, string>,
): Promise<ConnectorAnswer> {
  const form = await connectorCreate(t, user, providerName);
  expect(form.type).toBe('credentials');
  expect(form.credentials).toEqual(Object.keys(credentials));
  return connect(
    t,
    user.headers,
    providerName,
    form.credentials.map((name) => credentials[name] ?? ''),
  );
}

/**
 * OAuth: connectorCreate gives the broker's authorization URL (OAuth 2: with our state; OAuth
 * 1.0a: with the request token the server asked for, the callback registered once with the
 * broker); the fake's consent page approves at once and redirects to /callback/<provider> with
 * the provider's credential (`code`, `oauth_verifier`), which the callback screen hands to
 * connectorActivate as [code, state] (OAuth 1.0a: [verifier, oauth_token]). Kite takes no
 * redirect_uri: its state comes back through redirect_params.
 */
export async function connectWithOAuth(
  t: TestApp,
  user: Trader,
  providerName: string,
  fake?: Pick<ProtocolFake, 'registerCallback'>,
): Promise<ConnectorAnswer> {
  const creation = await connectorCreate(t, user, providerName);
  expect(creation.type).toBe('open');
  fake?.registerCallback?.(creation.redirectUrl ?? '');
  const requestUrl = new URL(creation.requestUrl ?? '');
  const passedBack = new URLSearchParams(requestUrl.searchParams.get('redirect_params') ?? '');
  const state = requestUrl.searchParams.get('state') ?? passedBack.get('state');
  if (!fake?.registerCallback) {
    expect(state).toBeTruthy();
    expect(requestUrl.searchParams.get('redirect_uri')).toBe(creation.redirectUrl);
  }
  const consent = await fetch(requestUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(creation.redirectUrl);
  expect(back.searchParams.get('state')).toBe(state);
  const code = back.searchParams.get(creation.credentials[0] ?? 'code') ?? '';
  // As the callback screen: OAuth 1.0a's request token (oauth_token) stands in for the state.
  const named = state ?? back.searchParams.get('oauth_token');
  return connect(t, user.headers, providerName, named ? [code, named] : [code]);
}

/** hookCreate on the connector's first account, or `account` (live: isTest false); its short key. */
export async function createLiveHook(
  t: TestApp,
  user: Trader,
  connector: ConnectorAnswer,
  account?: string,
): Promise<string> {
  const accounts = JSON.parse(connector.accounts) as Array<{ id: string }>;
  const accountId = account ?? accounts[0]?.id;
  expect(accountId).toBeTruthy();
  const answer = await gql<{ hookCreate: { shortKey: string; isTest: boolean; isActive: boolean } }>(
    t,
    user.headers,
    `mutation($c: String!, $a: String!) { hookCreate(connectorKey: $c, accountId: $a, name: "E2E", isTest: false) { ${HOOK_FIELDS} } }`,
    { c: connector.key, a: accountId },
  );
  if (!answer.data) throw new Error(`hookCreate failed: ${answer.error?.message}`);
  expect(answer.data.hookCreate).toMatchObject({ isTest: false, isActive: true });
  return answer.data.hookCreate.shortKey;
}

/**
 * Sends `signal` to the hook: 201 with the broker's order, exactly one order at the broker
 * (`orderCount`), one signal spent; the same body again gets the same answer and places nothing.
 * Returns the signal id (our client order id) and the first answer.
 */
export async function placeExactlyOnce(
  t: TestApp,
  user: Trader,
  shortKey: string,
  signal: Record<string, unknown>,
  orderCount: () => number | Promise<number>,
): Promise<{ signalId: string; answer: Record<string, unknown> }> {
  const first = await postSignal(t, shortKey, signal);
  expect(first.statusCode, first.body).toBe(201);
  const answer = first.json() as Record<string, unknown>;
  expect(typeof answer.id).toBe('string');
  expect(answer.id).not.toBe('');
  expect(await orderCount()).toBe(1);
  expect(await balanceOf(t, user.userId)).toBe(4);
  const again = await postSignal(t, shortKey, signal);
  expect(again.statusCode).toBe(201);
  expect(again.json()).toEqual(answer);
  expect(await orderCount()).toBe(1);
  expect(await balanceOf(t, user.userId)).toBe(4);
  // The outcome is recorded after the answer.
  await eventually(async () => (await signalRows(t, user.userId))[0]?.broker_order_id === answer.id);
  const rows = await signalRows(t, user.userId);
  expect(rows).toHaveLength(1);
  return { signalId: rows[0]?.id ?? '', answer };
}
