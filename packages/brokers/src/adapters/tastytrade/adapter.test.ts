// Contract tests of the tastytrade adapter against its protocol fake: OAuth sign-in and refresh,
// the User-Agent rule, every order the descriptor claims, refusals before sending, errors as
// typed BrokerErrors, no order resent, lookups by id and by our external-identifier.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { ACCOUNT, failure, MINUTE, useTastytradeFake } from './fixtures/harness.ts';
import { SIGNAL_CASES } from './fixtures/signals.ts';

const t = useTastytradeFake();
const { broker, connect, place, tokenCalls, calls } = t;

describe('sign-in', () => {
  it('sends the user to the consent page and connects with the code it returns', async () => {
    const { requestUrl } = broker.authorizationUrl(t.ctx, 'state-123');
    const url = new URL(requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.fake.baseUrl}/auth.html`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'fake-tasty-client',
      redirect_uri: 'http://127.0.0.1:3000/callback/tastytrade',
      response_type: 'code',
      scope: 'read trade',
      state: 'state-123',
    });
    const consent = await fetch(requestUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('state-123');
    const session = await broker.connect(t.ctx, { credentials: { code: back.searchParams.get('code') ?? '' } });
    expect(session.accounts).toEqual([
      {
        id: ACCOUNT,
        name: `tastytrade Individual ${ACCOUNT}`,
        dataTitle: ACCOUNT,
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    // The refresh token does not expire: no expiry warning, a refresh a minute before 15 minutes.
    expect(session.expiresAt).toBeUndefined();
    expect(session.refreshAt).toBe(t.clock.time + 14 * MINUTE);
    const [tokenCall] = tokenCalls();
    expect(tokenCall?.headers.authorization).toBeUndefined();
    expect(tokenCall?.headers['user-agent']).toBe('signal-router/1.0');
    expect(tokenCall?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(tokenCall?.body ?? '')).toEqual({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: t.ctx.redirectUrl,
      client_id: 'fake-tasty-client',
      client_secret: 'fake-tasty-secret',
    });
    expect(calls()).toEqual(['GET /auth.html', 'POST /oauth/token', 'GET /customers/me/accounts']);
    expect(t.fake.requests.at(-1)?.headers).toMatchObject({
      authorization: `Bearer ${session.secrets.accessToken}`,
      'user-agent': 'signal-router/1.0',
    });
  });

  it('uses tastytrade’s own consent pages for production and the sandbox', () => {
    const production = { ...t.ctx, baseUrl: 'https://api.tastyworks.com' };
    const sandbox = { ...t.ctx, baseUrl: 'https://api.cert.tastyworks.com' };
    expect(broker.authorizationUrl(production, 's').requestUrl).toMatch(/^https:\/\/my\.tastytrade\.com\/auth\.html\?/);
    expect(broker.authorizationUrl(sandbox, 's').requestUrl).toMatch(
      /^https:\/\/cert-my\.staging-tasty\.works\/auth\.html\?/,
    );
  });

  it("refuses a used code as AuthenticationError; a wrong app secret or a missing app is this server's setup", async () => {
    const code = t.fake.issueCode(t.ctx.redirectUrl ?? '');
    await broker.connect(t.ctx, { credentials: { code } });
    const reused = await failure(broker.connect(t.ctx, { credentials: { code } }));
    expect([reused.kind, reused.message]).toEqual([
      'AuthenticationError',
      'tastytrade: sign-in refused (Invalid authorization code); reconnect',
    ]);
    const wrong = await failure(
      broker.connect(
        { ...t.ctx, clientSecret: 'nope' },
        { credentials: { code: t.fake.issueCode(t.ctx.redirectUrl ?? '') } },
      ),
    );
    // This server's app refused: the user cannot fix it by connecting again.
    expect([wrong.kind, wrong.message]).toEqual([
      'BrokerUnavailable',
      "tastytrade: the broker connection is misconfigured on this server's side: its app credentials were refused (invalid_client). Please contact support.",
    ]);
    const unset = await failure(broker.connect({ baseUrl: t.fake.baseUrl }, { credentials: { code: 'x' } }));
    // This server's setup, not the user's grant: nothing a refresh meeting it would deactivate.
    expect([unset.kind, unset.message]).toEqual([
      'BrokerUnavailable',
      'tastytrade: TASTYTRADE_CLIENT_ID and TASTYTRADE_CLIENT_SECRET are not set',
    ]);
  });

  it('is refused without a User-Agent in the product/version form (tastytrade answers 401)', async () => {
    const session = await connect();
    const answer = await fetch(`${t.fake.baseUrl}/customers/me/accounts`, {
      headers: { authorization: `Bearer ${session.secrets.accessToken}`, 'user-agent': 'node' },
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({
      error: { code: 'unauthorized', message: 'A User-Agent header (product/version) is required' },
    });
  });
});

describe('tokens on the clock', () => {
  it('refreshes with the refresh token and the app secret; the refresh token stays', async () => {
    const session = await connect();
    t.clock.time += 15 * MINUTE;
    const refreshed = await broker.refresh(t.ctx, session);
    expect(JSON.parse(tokenCalls().at(-1)?.body ?? '')).toEqual({
      grant_type: 'refresh_token',
      refresh_token: session.secrets.refreshToken,
      client_secret: 'fake-tasty-secret',
    });
    expect(refreshed.secrets.refreshToken).toBe(session.secrets.refreshToken);
    expect(refreshed.secrets.accessToken).not.toBe(session.secrets.accessToken);
    expect(refreshed.refreshAt).toBe(t.clock.time + 14 * MINUTE);
    expect(refreshed.expiresAt).toBeUndefined();
    expect(refreshed.accounts).toEqual(session.accounts);
  });

  it('renews a due token before an order, and retries a read (never an order) once after a 401', async () => {
    const session = await connect();
    t.clock.time += 14 * MINUTE + 1;
    t.fake.requests.length = 0;
    await place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sig-clock');
    expect(calls()).toEqual(['POST /oauth/token', `POST /accounts/${ACCOUNT}/orders`]);
    t.fake.requests.length = 0;
    t.fake.revokeAccessTokens();
    await broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(calls().filter((call) => call.includes('oauth'))).toHaveLength(1);
    t.fake.requests.length = 0;
    t.fake.revokeAccessTokens();
    const refused = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([refused.kind, refused.message]).toEqual(['AuthenticationError', 'tastytrade: Token is invalid or expired']);
    expect(t.fake.submissions()).toHaveLength(1);
    expect(tokenCalls()).toHaveLength(0);
  });

  it('asks for a new sign-in once the grant is revoked at tastytrade', async () => {
    const session = await connect();
    t.fake.revokeGrant(session.secrets.refreshToken ?? '');
    const refused = await failure(broker.refresh(t.ctx, session));
    expect([refused.kind, refused.message]).toEqual([
      'AuthenticationError',
      'tastytrade: sign-in refused (Grant revoked or invalid); reconnect',
    ]);
  });
});

describe('orders the descriptor claims', () => {
  let session: BrokerSession;
  beforeAll(async () => {
    session = await connect();
  });

  /** A sell of a long is checked against the position: the case buys it first, then forgets those requests. */
  async function holdWhatItCloses(
    session: BrokerSession,
    signal: Record<string, unknown>,
    wire: Record<string, unknown>,
  ) {
    const legs = (wire.legs ?? []) as Array<Record<string, unknown>>;
    for (const leg of legs.filter((l) => l.action === 'Sell to Close' && l['instrument-type'] !== 'Future')) {
      await place(session, { symbol: signal.symbol, action: 'buy', quantity: leg.quantity }, 'sig-setup');
    }
    t.fake.requests.length = 0;
  }

  for (const { name, signal, path, wire } of SIGNAL_CASES) {
    it(`places ${name}`, async () => {
      await holdWhatItCloses(session, signal, wire);
      const before = t.fake.orders.length;
      const response = await place(session, signal);
      const posted = t.fake.submissions();
      expect(posted.map((r) => [r.url, JSON.parse(r.body)])).toEqual([[`/accounts/${ACCOUNT}${path}`, wire]]);
      expect(posted[0]?.headers).toMatchObject({
        authorization: `Bearer ${session.secrets.accessToken}`,
        'user-agent': 'signal-router/1.0',
        'content-type': 'application/json',
      });
      expect(response).toMatchObject({ status: 'accepted', status_description: 'Routed' });
      // The broker order id is the order's (a bracket's entry); the fake holds it under that id.
      expect(t.fake.orders.slice(before)[0]?.id).toBe(Number(response.id));
    });
  }

  /** An order posted to the fake as tastytrade takes it (its preflight checks answer), on a fresh session. */
  async function postToFake(order: Record<string, unknown>) {
    const { secrets } = await connect();
    return fetch(`${t.fake.baseUrl}/accounts/${ACCOUNT}/orders`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secrets.accessToken}`,
        'user-agent': 'signal-router/1.0',
        'content-type': 'application/json',
      },
      body: JSON.stringify(order),
    });
  }

  it('the fake refuses a future’s price off its contract’s tick, as tastytrade does (422 preflight)', async () => {
    const answer = await postToFake({
      'time-in-force': 'Day',
      'order-type': 'Limit',
      price: '5401.13',
      'price-effect': 'Debit',
      legs: [{ 'instrument-type': 'Future', symbol: '/ESU6', quantity: 1, action: 'Buy' }],
    });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({
      error: { code: 'preflight_check_failure', errors: [{ code: 'invalid_price_increment' }] },
    });
  });

  it('the fake refuses legs on two underlyings, as one tastytrade order has one (422 preflight)', async () => {
    const answer = await postToFake({
      'time-in-force': 'Day',
      'order-type': 'Limit',
      price: '1.05',
      'price-effect': 'Debit',
      legs: [
        { 'instrument-type': 'Equity Option', symbol: 'SPX   271217C06000000', quantity: 1, action: 'Buy to Open' },
        { 'instrument-type': 'Equity Option', symbol: 'QQQ   271217C00600000', quantity: 1, action: 'Sell to Open' },
      ],
    });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({
      error: { code: 'preflight_check_failure', errors: [{ code: 'invalid_underlying' }] },
    });
  });

  it('places an SPX/SPXW calendar as one order on the underlying SPX (a weekly root is its index’s)', async () => {
    const response = await place(session, {
      legs: [
        { symbol: 'SPX_271217C06000000', action: 'buy_to_open' },
        { symbol: 'SPXW_271119C06000000', action: 'sell_to_open' },
      ],
      quantity: 1,
      limit_price: 12.5,
    });
    expect(response).toMatchObject({ status: 'accepted' });
    const posted = t.fake.submissions().map((r) => JSON.parse(r.body));
    expect(posted.at(-1)?.legs.map((leg: { symbol: string }) => leg.symbol)).toEqual([
      'SPX   271217C06000000',
      'SPXW  271119C06000000',
    ]);
  });

  it.each([
    [
      { symbol: 'ES1!', action: 'buy', quantity: 1 },
      'ES1! is a continuous contract; give the contract month, such as ESZ2026',
    ],
    [
      { symbol: 'BTC/EUR', action: 'buy', quantity: 1 },
      'BTC/EUR: cryptocurrencies trade against USD only, such as BTC/USD',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1, duration: 'gtd' },
      'duration gtd needs extra.gtc_date, the last day as YYYY-MM-DD',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'ioc', extra: { session: 'extended' } },
      'extra.session extended is only for duration day or gtc',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1, quantity_type: 'cash' },
      'quantity_type cash takes a market order',
    ],
    [
      { symbol: 'AAPL', action: 'sell', quantity: 1, limit_price: 200, take_profit_price: 190 },
      'take profit and stop loss need an opening action, not sell',
    ],
    [
      {
        legs: [
          { symbol: 'SPY_271217C00600000', action: 'buy_to_open' },
          { symbol: 'SPY_271217C00610000', action: 'sell_to_open' },
        ],
        quantity: 1,
        limit_price: 0,
      },
      'a multi-leg limit needs a net price other than 0',
    ],
    [
      {
        legs: [
          { symbol: 'SPX_271217C06000000', action: 'buy_to_open' },
          { symbol: 'QQQ_271217C00600000', action: 'sell_to_open' },
        ],
        quantity: 1,
        limit_price: 1.05,
      },
      'the legs of one order share one underlying; these have SPX, QQQ',
    ],
  ])('refuses before sending what tastytrade cannot do: %j', async (signal, message) => {
    const session = await connect();
    const refused = await failure(place(session, signal));
    expect([refused.kind, refused.message]).toEqual(['InvalidOrder', `tastytrade: ${message}`]);
    expect(t.fake.submissions()).toHaveLength(0);
  });
});
