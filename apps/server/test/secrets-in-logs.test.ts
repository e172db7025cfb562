// No secret reaches a log line: the real server (trace level, every request logged) goes through
// sign-ups, sign-ins (a wrong password too), a broker connection with keys (a wrong one too), an
// API token, live and test signals (a refused one too), /metrics, and a password reset; then its
// whole output is searched for every secret it handled.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAlpaca } from '../../../packages/brokers/src/adapters/alpaca/fake.ts';
import { passwordFile } from '../src/db/embedded-access.ts';
import { freshDataDir, type LiveServer, removeDataDir, startLiveServer } from './faults/live-server.ts';
import { createTrader, gqlHttp, TRADER_PASSWORD } from './faults/trader.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('base64');
const ALPACA = {
  keyId: `PK${randomBytes(8).toString('hex').toUpperCase()}`,
  secretKey: randomBytes(20).toString('hex'),
};

let smtp: SmtpSink;
let alpaca: Awaited<ReturnType<typeof startFakeAlpaca>>;
let server: LiveServer;
const dataDir = freshDataDir('router-secrets-');

beforeAll(async () => {
  [smtp, alpaca] = await Promise.all([startSmtpSink(), startFakeAlpaca(ALPACA)]);
  server = await startLiveServer(
    {
      LOG_LEVEL: 'trace',
      SMTP_URL: smtp.url,
      ALPACA_BASE_URL: alpaca.url,
      METRICS_TOKEN,
      SECRETS_KEY,
      HOOK_RATE_PER_HOOK: '0',
    },
    dataDir,
  );
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await Promise.all([smtp?.close(), alpaca?.close()]);
  await removeDataDir(dataDir);
});

const gql = <T>(query: string, variables: Record<string, unknown> = {}, token?: string) =>
  gqlHttp<T>(server.url, query, variables, token);

async function hook(shortKey: string, body: unknown): Promise<number> {
  const res = await fetch(`${server.url}/hook/${shortKey}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('log lines', { timeout: 120_000 }, () => {
  it('hold none of the secrets the server handled', async () => {
    const secrets: Record<string, string> = {
      password: TRADER_PASSWORD,
      metricsToken: METRICS_TOKEN,
      secretsKey: SECRETS_KEY,
      alpacaKeyId: ALPACA.keyId,
      alpacaSecret: ALPACA.secretKey,
      databasePassword: fs.readFileSync(passwordFile(dataDir), 'utf8').trim(),
    };
    // Sign-up with the emailed link, a broker connection with keys, a live and a test hook.
    const trader = await createTrader(server.url, smtp, server.sql(), {
      provider: 'alpaca',
      credentials: [ALPACA.keyId, ALPACA.secretKey],
      balance: 100,
    });
    secrets.confirmSession = trader.token;
    const [live, test] = trader.hooks as [string, string];
    secrets.liveHook = live;
    secrets.testHook = test;

    const signin = (password: string) =>
      gql<{ signin: { token: string } }>(
        'mutation($c: JSON!) { signin(type: "password", credentials: $c) { token } }',
        { c: { email: trader.email, password } },
      );
    secrets.session = (await signin(TRADER_PASSWORD)).signin.token;
    secrets.wrongPassword = 'Not-The-Password-42!';
    await expect(signin(secrets.wrongPassword)).rejects.toThrow();

    const beforeToken = smtp.mails.length;
    const { userTokenCreate } = await gql<{ userTokenCreate: { secret: string } }>(
      'mutation { userTokenCreate(metadata: {name: "script"}) { secret } }',
      {},
      secrets.session,
    );
    secrets.apiToken = userTokenCreate.secret;
    // The new token's notice is mailed in the background: taken here, so the reset's mail below is the next one.
    expect((await smtp.waitFor(trader.email, beforeToken)).subject).toMatch(/API token/);
    expect((await gql<{ user: { email: string } }>('{ user { email } }', {}, secrets.apiToken)).user.email).toBe(
      trader.email,
    );
    secrets.wrongApiToken = randomBytes(32).toString('base64url');
    await expect(gql('{ user { email } }', {}, secrets.wrongApiToken)).rejects.toThrow();

    // A connection attempt with a wrong secret: the broker refuses it.
    secrets.wrongAlpacaSecret = randomBytes(20).toString('hex');
    await gql('mutation { connectorCreate(providerName: "alpaca") { type } }', {}, secrets.session);
    await expect(
      gql(
        'mutation($c: [String!]!) { connectorActivate(providerName: "alpaca", credentials: $c) { key } }',
        { c: [ALPACA.keyId, secrets.wrongAlpacaSecret] },
        secrets.session,
      ),
    ).rejects.toThrow();

    // Signals: filled, refused by the broker (buying power), invalid, a test hook's draft.
    expect(await hook(live, { symbol: 'AAPL', action: 'buy', quantity: 1 })).toBe(201);
    expect(await hook(live, { symbol: 'AAPL', action: 'buy', quantity: 10_000_000 })).toBe(400);
    expect(await hook(live, { symbol: 'AAPL', action: 'hold' })).toBe(400);
    expect(await hook(test, { symbol: 'AAPL', action: 'sell', quantity: 1 })).toBe(201);

    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    await metrics.text();

    // A password reset: its emailed link's token is a secret too.
    const since = smtp.mails.length;
    await gql('mutation($e: String!) { authPasswordResetRequest(email: $e) }', { e: trader.email });
    const resetMail = await smtp.waitFor(trader.email, since);
    for (const match of smtp.mails.flatMap((m) => [...m.text.matchAll(/[?&]token=([\w-]+)/g)])) {
      secrets[`mailed:${match[1]?.slice(0, 6)}`] = match[1] ?? '';
    }
    expect(resetMail.text).toMatch(/token=/);

    await server.stop();
    const output = server.process.output();
    const lines = output.split('\n').filter(Boolean);
    // The log is not empty: requests at trace level, the hook with its key masked.
    expect(lines.length).toBeGreaterThan(20);
    expect(output).toMatch(/\/hook\/\*\*\*/);
    expect(output).toMatch(/broker call failed/);
    const leaks = Object.entries(secrets).flatMap(([name, secret]) =>
      lines.filter((line) => line.includes(secret)).map((line) => `${name}: ${line.slice(0, 300)}`),
    );
    expect(leaks).toEqual([]);
  });
});
