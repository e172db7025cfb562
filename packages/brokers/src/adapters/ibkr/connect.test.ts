// Contract: connecting by OAuth 1.0a (live session token by Diffie-Hellman, every request signed)
// and through a Client Portal Gateway, wrong credentials refused with IBKR's title, the token
// refreshed before it runs out, and the brokerage session opened again when IBKR closed it.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIbkrBroker } from './adapter.ts';
import { parseAuthorization } from './fake-oauth.ts';
import { ACCOUNT, type Connected, connected, failure, input, ORDERS_PATH, sentSince } from './test-support.ts';

const buy = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('OAuth 1.0a', () => {
  // Each case its own fake, adapter and clock: cases move the clock, close sessions and revoke tokens.
  let c: Connected;
  beforeEach(async () => {
    c = await connected();
  });
  afterEach(() => c.close());
  /** A first order, so the adapter knows AAPL's contract and the next one sends no lookup. */
  const knowAapl = () => c.broker.placeOrder(c.ctx, c.session, input(buy));

  it('makes a live session token, opens the brokerage session and reads the accounts', () => {
    expect(sentSince(c.fake, 0)).toEqual([
      'POST /v1/api/oauth/live_session_token',
      'POST /v1/api/tickle',
      'POST /v1/api/iserver/auth/ssodh/init',
      'GET /v1/api/iserver/accounts',
      'POST /v1/api/iserver/questions/suppress',
      'GET /v1/api/portfolio/accounts',
    ]);
    expect(JSON.parse(c.fake.requests[2]?.body ?? '')).toEqual({ publish: true, compete: true });
    expect(c.session.accounts).toEqual([
      {
        id: 'DU123456',
        name: 'Interactive Brokers paper DU123456',
        dataTitle: 'Fake DU123456',
        dataType: 'demo',
        dataCurrency: 'USD',
        demo: true,
      },
      {
        id: 'U1234567',
        name: 'Interactive Brokers U1234567',
        dataTitle: 'Fake U1234567',
        dataType: 'individual',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    expect(c.fake.authFailures).toEqual([]);
  });

  it('signs every request HMAC-SHA256 in the limited_poa realm; the access token never expires', () => {
    const header = parseAuthorization(String(c.fake.requests[1]?.headers.authorization));
    expect(header).toMatchObject({
      realm: 'limited_poa',
      oauth_consumer_key: c.fake.credentials.consumerKey,
      oauth_token: c.fake.credentials.accessToken,
      oauth_signature_method: 'HMAC-SHA256',
    });
    const lst = parseAuthorization(String(c.fake.requests[0]?.headers.authorization));
    expect(lst).toMatchObject({ oauth_signature_method: 'RSA-SHA256', diffie_hellman_challenge: expect.any(String) });
    expect(c.session.expiresAt).toBeUndefined();
    const expiresAt = Number(c.session.secrets.liveSessionTokenExpiresAt);
    expect(c.session.refreshAt).toBe(expiresAt - 60 * 60_000);
    expect(expiresAt).toBe(c.clock.now + 24 * 60 * 60_000);
  });

  it('refresh makes a new live session token; calls go on with it', async () => {
    c.clock.now += 23.5 * 60 * 60_000;
    const refreshed = await c.broker.refresh(c.ctx, c.session);
    expect(refreshed.secrets.liveSessionToken).not.toBe(c.session.secrets.liveSessionToken);
    expect(refreshed.refreshAt).toBe(c.clock.now + 23 * 60 * 60_000);
    expect(refreshed.accounts).toEqual(c.session.accounts);
    // The first token runs out: only the new one signs.
    c.clock.now += 60 * 60_000;
    const placed = await c.broker.placeOrder(c.ctx, refreshed, input(buy));
    expect(placed.status).toBe('filled');
    expect(c.fake.authFailures).toEqual([]);
  });

  it('a token that ran out unrefreshed is renewed before the call', async () => {
    const { session } = c;
    c.clock.now += 25 * 60 * 60_000;
    const before = c.fake.requests.length;
    await c.broker.placeOrder(c.ctx, session, input(buy));
    expect(sentSince(c.fake, before).slice(0, 3)).toEqual([
      'POST /v1/api/oauth/live_session_token',
      'POST /v1/api/tickle',
      'POST /v1/api/iserver/auth/ssodh/init',
    ]);
  });

  it('opens the brokerage session again when IBKR closed it ("no bridge"), and sends the order once', async () => {
    await knowAapl();
    c.fake.closeBrokerage();
    const before = c.fake.requests.length;
    const placed = await c.broker.placeOrder(c.ctx, c.session, input(buy, 'sig-bridge'));
    expect(placed.status).toBe('filled');
    expect(sentSince(c.fake, before)).toEqual([
      `POST ${ORDERS_PATH}`,
      'POST /v1/api/tickle',
      'POST /v1/api/iserver/auth/ssodh/init',
      'GET /v1/api/iserver/accounts',
      'POST /v1/api/iserver/questions/suppress',
      `POST ${ORDERS_PATH}`,
    ]);
    expect(c.fake.ledger.orders.filter((order) => order.cOID === 'sig-bridge')).toHaveLength(1);
  });

  it('asks /tickle after a minute idle and reopens a session that timed out', async () => {
    await knowAapl();
    c.clock.now += 10 * 60_000;
    const before = c.fake.requests.length;
    await c.broker.placeOrder(c.ctx, c.session, input(buy));
    expect(sentSince(c.fake, before)).toEqual([
      'POST /v1/api/tickle',
      'POST /v1/api/iserver/auth/ssodh/init',
      'GET /v1/api/iserver/accounts',
      'POST /v1/api/iserver/questions/suppress',
      `POST ${ORDERS_PATH}`,
    ]);
  });

  it("a refresh meeting a proxy's or a CDN's 401 page (or an empty 401) is an outage; IBKR's own 401 a refusal", async () => {
    c.clock.now += 23.5 * 60 * 60_000;
    for (const body of ['<html><body><h1>401 Authorization Required</h1></body></html>', '']) {
      c.fake.inject({
        path: '/v1/api/oauth/live_session_token',
        status: 401,
        body,
        headers: { 'content-type': 'text/html' },
      });
      expect(await failure(c.broker.refresh(c.ctx, c.session))).toMatchObject({
        kind: 'BrokerUnavailable',
        message: 'Interactive Brokers: HTTP 401',
      });
    }
    c.fake.inject({ path: '/v1/api/oauth/live_session_token', status: 401, body: { error: 'invalid consumer' } });
    expect(await failure(c.broker.refresh(c.ctx, c.session))).toMatchObject({ kind: 'AuthenticationError' });
    const refreshed = await c.broker.refresh(c.ctx, c.session);
    expect(refreshed.secrets.liveSessionToken).not.toBe(c.session.secrets.liveSessionToken);
  });

  it('a revoked access token is an authentication error, titled', async () => {
    c.fake.consumer?.revoke();
    c.clock.now += 2 * 60_000;
    const error = await failure(c.broker.getHoldings(c.ctx, c.session, ACCOUNT));
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Interactive Brokers: not authenticated' });
  });
});

describe('wrong credentials', () => {
  let c: Connected;
  beforeAll(async () => {
    c = await connected();
  });
  afterAll(() => c.close());
  const other = () =>
    String(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const connect = (changes: Record<string, string>) =>
    failure(createIbkrBroker().connect(c.ctx, { credentials: { ...c.fake.credentials, ...changes } }));

  it.each([
    ['signaturePrivateKey', 'not a key', 'the signature private key is not an unencrypted RSA key in PEM form'],
    ['encryptionPrivateKey', 'not a key', 'the encryption private key is not an unencrypted RSA key in PEM form'],
    ['dhPrime', 'xyz', 'the Diffie-Hellman prime is neither hex nor a DH PARAMETERS PEM'],
  ])('refuses an unreadable %s before calling IBKR', async (field, value, message) => {
    const before = c.fake.requests.length;
    expect(await connect({ [field]: value })).toMatchObject({
      kind: 'AuthenticationError',
      message: `Interactive Brokers: ${message}`,
    });
    expect(c.fake.requests.length).toBe(before);
  });

  it('refuses a secret that the encryption key does not open', async () => {
    const error = await connect({ encryptionPrivateKey: other() });
    expect(error.message).toBe('Interactive Brokers: the access token secret does not decrypt with the encryption key');
  });

  it('IBKR refuses a signature by another key (401)', async () => {
    const error = await connect({ signaturePrivateKey: other() });
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Interactive Brokers: invalid consumer' });
    expect(c.fake.authFailures.at(-1)).toBe('RSA signature mismatch');
  });

  it('a wrong prime gives a token that does not validate', async () => {
    const error = await connect({ dhPrime: 'ff'.repeat(256) });
    expect(error.message).toMatch(/^Interactive Brokers: the live session token does not validate/);
  });

  it('reads keys pasted on one line and the prime as a DH PARAMETERS PEM', async () => {
    const oneLine = (pem: string) => pem.replace(/\n/g, ' ');
    const prime = Buffer.from(c.fake.credentials.dhPrime ?? '', 'hex');
    const integer = (bytes: Buffer) => Buffer.concat([Buffer.from([0x02]), length(bytes.length), bytes]);
    const length = (n: number) => (n < 128 ? Buffer.from([n]) : Buffer.from([0x82, n >> 8, n & 0xff]));
    const body = Buffer.concat([integer(Buffer.concat([Buffer.from([0]), prime])), integer(Buffer.from([2]))]);
    const der = Buffer.concat([Buffer.from([0x30]), length(body.length), body]);
    const dhPrime = `-----BEGIN DH PARAMETERS-----${der.toString('base64')}-----END DH PARAMETERS-----`;
    const session = await createIbkrBroker().connect(c.ctx, {
      credentials: {
        ...c.fake.credentials,
        signaturePrivateKey: oneLine(c.fake.credentials.signaturePrivateKey ?? ''),
        encryptionPrivateKey: oneLine(c.fake.credentials.encryptionPrivateKey ?? ''),
        dhPrime,
      },
    });
    expect(session.accounts.map((account) => account.id)).toEqual(['DU123456', 'U1234567']);
  });
});

describe('Client Portal Gateway', () => {
  // Each case its own gateway: one logs it out, another counts the orders it holds.
  let c: Connected;
  beforeEach(async () => {
    c = await connected({ mode: 'gateway' }, 20);
  });
  afterEach(() => c.close());

  it('connects with the operator passphrase; requests carry no credentials', async () => {
    expect(c.session.secrets).toEqual({ mode: 'gateway' });
    expect(c.session.refreshAt).toBeUndefined();
    expect(c.fake.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
    await c.broker.placeOrder(c.ctx, c.session, input(buy));
    expect(c.fake.ledger.orders).toHaveLength(1);
    expect(await c.broker.refresh(c.ctx, c.session)).toBe(c.session);
  });

  it('refuses a wrong passphrase, or any when the server has none', async () => {
    const credentials = {
      consumerKey: 'Gateway',
      accessToken: 'guess',
      accessTokenSecret: '-',
      signaturePrivateKey: '-',
      encryptionPrivateKey: '-',
      dhPrime: '-',
    };
    const broker = createIbkrBroker();
    expect((await failure(broker.connect(c.ctx, { credentials }))).message).toBe(
      'Interactive Brokers: wrong gateway passphrase',
    );
    const unset = await failure(
      broker.connect({ baseUrl: c.fake.url }, { credentials: { ...credentials, accessToken: '' } }),
    );
    expect(unset.message).toBe(
      'Interactive Brokers: this server has no Client Portal Gateway passphrase (IBKR_CLIENT_SECRET)',
    );
  });

  it('tickles the gateway every interval to keep its session', async () => {
    const tickles = () => c.fake.requests.filter((request) => request.url === '/v1/api/tickle').length;
    const start = tickles();
    await vi.waitFor(() => expect(tickles()).toBeGreaterThanOrEqual(start + 3), { timeout: 5_000, interval: 10 });
  });

  it('a logged-out gateway is an authentication error telling what to do', async () => {
    c.fake.setLoggedIn(false);
    c.clock.now += 2 * 60_000;
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input(buy)));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message:
        'Interactive Brokers: the Client Portal Gateway is not logged in: log in at its page, then connect again',
    });
  });
});
