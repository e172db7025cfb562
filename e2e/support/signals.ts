// Webhooks and signals for browser journeys: webhooks made through the API, and a signal sent to
// one from outside, as TradingView would.
import { expect } from 'vitest';
import { serverUrl } from './server.ts';
import { graphql, type TestUser } from './users.ts';

export interface TestHook {
  key: string;
  shortKey: string;
  url: string;
}

/** A webhook on the connector's first account. */
export async function createWebhook(user: TestUser, connectorKey: string, name = 'Main', isTest = false) {
  const { connector } = await graphql<{ connector: { accounts: string } }>(
    user.token,
    'query ($key: String!) { connector(key: $key) { accounts } }',
    { key: connectorKey },
  );
  const [account] = JSON.parse(connector.accounts) as Array<{ id: string }>;
  const { hookCreate } = await graphql<{ hookCreate: TestHook }>(
    user.token,
    `mutation ($c: String!, $a: String!, $n: String, $t: Boolean) {
      hookCreate(connectorKey: $c, accountId: $a, name: $n, isTest: $t) { key shortKey url } }`,
    { c: connectorKey, a: account?.id ?? '', n: name, t: isTest },
  );
  return hookCreate;
}

/** A live webhook on the paper broker's first account; returns its short key. */
export async function createHook(user: TestUser, connectorKey: string): Promise<string> {
  return (await createWebhook(user, connectorKey)).shortKey;
}

/** A signal as TradingView would send it; returns the answer (HTTP status and JSON body). */
export async function signalAnswer(
  shortKey: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${serverUrl()}/hook/${shortKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A signal as TradingView would send it; returns the answer's status. */
export async function signal(shortKey: string, body: Record<string, unknown>): Promise<number> {
  return (await signalAnswer(shortKey, body)).status;
}

/**
 * An alert as TradingView posts it: the alert's message as text/plain to the webhook URL.
 * Returns the answer's HTTP status.
 */
export async function tradingViewAlert(url: string, message: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: message });
  await response.arrayBuffer();
  return response.status;
}

/** The server's default HOOK_INVALID_THRESHOLD (50) invalid requests in an hour turn a hook off. */
export async function deactivate(user: Pick<TestUser, 'token'>, hook: { key: string; shortKey: string }) {
  for (let i = 0; i < 50; i++) await signal(hook.shortKey, { symbol: 'AAPL', action: 'buy' });
  await expect
    .poll(async () => {
      const { hook: state } = await graphql<{ hook: { isActive: boolean } }>(
        user.token,
        'query ($k: String!) { hook(key: $k) { isActive } }',
        { k: hook.key },
      );
      return state.isActive;
    })
    .toBe(false);
}
