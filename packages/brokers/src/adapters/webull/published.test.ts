// Webull's published examples (../shared/broker-specs/webull/fixtures): each is replayed somewhere.
// The signature vectors in signer.test.ts; the order requests and answers through
// fixtures/requests.json and responses.json (core/replay.test.ts); the account list and the 2FA
// token's answer here, as the answers connect reads.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { createWebullBroker } from './adapter.ts';
import { startWebullFake, type WebullFake } from './fake.ts';
import { sentSince } from './test-support.ts';

const folder = brokerSpecsPath('webull', 'fixtures');
const response = (file: string) =>
  (JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')) as { response: { status: number; body: unknown } }).response;
const replayed = ['requests.json', 'responses.json'].map((file) =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8'),
);

let fake: WebullFake;
beforeAll(async () => {
  fake = await startWebullFake();
});
afterAll(() => fake.close());

describe("Webull's published examples", () => {
  it('each is used: by the replay fixtures (their description names it) or below', () => {
    const here = ['accounts.response.json', 'token-create.response.json', 'signature-vectors.json'];
    const files = readdirSync(folder).filter((file) => !here.includes(file));
    expect(files.filter((file) => !replayed.some((text) => text.includes(`(${file}`)))).toEqual([]);
  });

  it('connect reads the account list and a token PENDING until approved (token-create.response.json)', async () => {
    const broker = createWebullBroker({ tokenPolling: { intervalMs: 5, maxWaitMs: 1_000 } });
    const created = response('token-create.response.json');
    // Webull's answers throughout: an account with 2FA, its token, its accounts.
    fake.inject({ method: 'GET', path: '/openapi/config', status: 200, body: { token_check_enabled: true } });
    fake.inject({ method: 'POST', path: '/openapi/auth/token/create', ...created });
    fake.inject({ method: 'GET', path: '/openapi/account/list', ...response('accounts.response.json') });
    // The check answers for the published (placeholder) token: approved.
    const approved = { ...(created.body as Record<string, unknown>), status: 'NORMAL' };
    fake.inject({ method: 'POST', path: '/openapi/auth/token/check', status: 200, body: approved });
    const before = fake.requests.length;
    const session = await broker.connect({ baseUrl: fake.baseUrl }, { credentials: fake.keys });
    expect(sentSince(fake, before).at(-2)?.body).toEqual({ token: '<opaque-token>' });
    expect(session).toEqual({
      secrets: { ...fake.keys, environment: 'live', accessToken: '<opaque-token>', tokenExpires: '1782311462000' },
      accounts: [
        {
          id: 'DEMOACCT0001',
          name: 'Webull Individual Margin 5MV12345',
          dataTitle: '5MV12345',
          dataType: 'margin',
          dataCurrency: 'USD',
          demo: false,
        },
      ],
      expiresAt: 1782311462000,
      refreshAt: 1782311462000 - 24 * 60 * 60_000,
    });
  });
});
