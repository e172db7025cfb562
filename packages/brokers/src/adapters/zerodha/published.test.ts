// Zerodha's published request examples (../shared/broker-specs/zerodha/fixtures): each is used,
// by the replay fixtures (their description names it) or here, where the adapter must send the
// published request byte for byte: the form in Kite's field order, its headers, no token before
// the session exists.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { kiteChecksum } from './login.ts';
import { type Connected, connected, input } from './test-support.ts';

interface Published {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Record<string, string>;
  raw_body?: string;
}

const folder = brokerSpecsPath('zerodha', 'fixtures');
const published = (file: string) =>
  (JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')) as { request: Published }).request;
const replayed = ['requests.json', 'responses.json'].map((file) =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8'),
);

// A fake and session of each case's own: signing in again (the session-token case) ends the
// session before it, so a shared one would fail the cases after it.
let c: Connected;
beforeEach(async () => {
  c = await connected();
});
afterEach(() => c.fake.close());

/** The published headers with the placeholders of the session filled in, names lower-cased. */
function expectedHeaders(request: Published): Record<string, string> {
  const { apiKey = '', accessToken = '' } = c.session.secrets;
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name.toLowerCase(),
      value.replace('<api_key>', apiKey).replace('<access_token>', accessToken),
    ]),
  );
}

describe("Zerodha's published request examples", () => {
  it('each is used: by the replay fixtures or below', () => {
    const here = ['session-token.request.json'];
    const files = readdirSync(folder).filter((file) => !here.includes(file));
    expect(files.filter((file) => !replayed.some((text) => text.includes(`(${file}`)))).toEqual([]);
  });

  it.each([
    ['place-order.request.json', { symbol: 'NSE:INFY', action: 'buy', quantity: 10, limit_price: 1520.5 }],
    ['place-order-market.request.json', { symbol: 'SBIN', action: 'sell', quantity: 5, extra: { product: 'MIS' } }],
    [
      'place-order-sl-nfo.request.json',
      { symbol: 'NFO:NIFTY26JUNFUT', action: 'buy', quantity: 75, limit_price: 24105, stop_price: 24100 },
    ],
  ])('%s: the same form, in the same order, with the same headers', async (file, signal) => {
    const request = published(file);
    const before = c.fake.requests.length;
    await c.broker.placeOrder(c.ctx, c.session, input(signal, request.body?.tag));
    const sent = c.fake.requests[before];
    expect(`${sent?.method} ${sent?.url}`).toBe(`${request.method} ${request.path}`);
    expect(sent?.body).toBe(request.raw_body ?? new URLSearchParams(request.body).toString());
    expect(sent?.headers).toMatchObject(expectedHeaders(request));
  });

  it('session-token.request.json: the request token exchanged with its checksum, no Authorization', async () => {
    const request = published('session-token.request.json');
    const requestToken = c.fake.issueRequestToken();
    const before = c.fake.requests.length;
    await c.broker.connect(c.ctx, { credentials: { request_token: requestToken } });
    const sent = c.fake.requests[before];
    const { clientId = '', clientSecret = '' } = c.ctx;
    expect(`${sent?.method} ${sent?.url}`).toBe(`${request.method} ${request.path}`);
    expect(Object.fromEntries(new URLSearchParams(sent?.body))).toEqual({
      api_key: clientId,
      request_token: requestToken,
      checksum: kiteChecksum(clientId, requestToken, clientSecret),
    });
    expect(Object.keys(Object.fromEntries(new URLSearchParams(sent?.body)))).toEqual(Object.keys(request.body ?? {}));
    expect(sent?.headers).toMatchObject(expectedHeaders(request));
    expect(sent?.headers.authorization).toBeUndefined();
  });
});
