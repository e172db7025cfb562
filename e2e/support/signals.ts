// Webhooks and signals for browser journeys: a live webhook made through the API, and a signal
// sent to it from outside, as TradingView would.
import { serverUrl } from './server.ts';
import { graphql, type TestUser } from './users.ts';

/** A live webhook on the paper broker's first account; returns its short key. */
export async function createHook(user: TestUser, connectorKey: string): Promise<string> {
  const { connector } = await graphql<{ connector: { accounts: string } }>(
    user.token,
    'query ($key: String!) { connector(key: $key) { accounts } }',
    { key: connectorKey },
  );
  const [account] = JSON.parse(connector.accounts) as Array<{ id: string }>;
  const { hookCreate } = await graphql<{ hookCreate: { shortKey: string } }>(
    user.token,
    'mutation ($c: String!, $a: String!) { hookCreate(connectorKey: $c, accountId: $a, name: "Main", isTest: false) { shortKey } }',
    { c: connectorKey, a: account?.id ?? '' },
  );
  return hookCreate.shortKey;
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
