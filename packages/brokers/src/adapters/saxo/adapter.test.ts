// Contract tests of Saxo's sign-in against the protocol fake: the authorization code flow through
// the consent page, refresh tokens rotated (and expiring), reads renewed once after a 401.
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { createSaxoBroker } from './adapter.ts';
import { ACCOUNT, CALLBACK, MINUTE, useSaxoFake } from './test-support.ts';

const t = useSaxoFake();
const tokenCalls = () => t.fake.requests.filter((r) => r.url === '/token');

describe('sign-in', () => {
  it('sends the user to the consent page and connects with the code it returns', async () => {
    const { requestUrl } = t.broker.authorizationUrl(t.ctx, 'state-1');
    const url = new URL(requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.fake.origin}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'fake-saxo-app-key',
      redirect_uri: CALLBACK,
      state: 'state-1',
    });
    const consent = await fetch(requestUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('state-1');
    const session = await t.broker.connect(t.ctx, { credentials: { code: back.searchParams.get('code') ?? '' } });
    expect(session.accounts).toEqual([
      { id: ACCOUNT, name: 'Saxo EUR …6397', dataTitle: '…6397', dataType: 'normal', dataCurrency: 'EUR', demo: true },
    ]);
    expect(session.secrets.clientKey).toBe(ACCOUNT);
    expect(session.expiresAt).toBe(t.clock.time + 60 * MINUTE);
    expect(session.refreshAt).toBe(t.clock.time + 18 * MINUTE);
    const [call] = tokenCalls();
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from('fake-saxo-app-key:fake-saxo-app-secret').toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(call?.body))).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: CALLBACK,
    });
  });

  it('does not connect with a used code or the wrong app secret', async () => {
    const code = t.fake.oauth.issueCode(CALLBACK);
    await t.broker.connect(t.ctx, { credentials: { code } });
    const reused = await brokerFailure(t.broker.connect(t.ctx, { credentials: { code } }));
    expect([reused.kind, reused.message]).toEqual([
      'AuthenticationError',
      'Saxo: sign-in refused (Invalid authorization code); reconnect',
    ]);
    const wrong = await brokerFailure(
      t.broker.connect({ ...t.ctx, clientSecret: 'nope' }, { credentials: { code: t.fake.oauth.issueCode(CALLBACK) } }),
    );
    expect([wrong.kind, wrong.message]).toEqual([
      'BrokerUnavailable',
      "Saxo: the broker connection is misconfigured on this server's side: its app credentials were refused (invalid_client). Please contact support.",
    ]);
  });
});

describe('tokens on the clock', () => {
  it('rotates the refresh token on every refresh, moving the session expiry on', async () => {
    const session = await t.connect();
    t.clock.time += 19 * MINUTE;
    const refreshed = await t.broker.refresh(t.ctx, session);
    expect(refreshed.secrets.refreshToken).not.toBe(session.secrets.refreshToken);
    expect(refreshed.expiresAt).toBe(t.clock.time + 60 * MINUTE);
    expect(refreshed.secrets.clientKey).toBe(ACCOUNT);
    expect(Object.fromEntries(new URLSearchParams(tokenCalls().at(-1)?.body))).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: session.secrets.refreshToken,
    });
    // The old refresh token is spent; the session keeps working from the kept renewal.
    await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    t.clock.time += 61 * MINUTE;
    const lapsed = await brokerFailure(t.broker.refresh(t.ctx, refreshed));
    expect(lapsed.message).toBe('Saxo: the Saxo sign-in has lapsed; connect again');
  });

  it("renews a stale token in a call through the server's refresh: a restart keeps the rotated refresh token", async () => {
    // The server: renews the stored session under its lock and stores the result.
    let stored = await t.connect();
    const ctx = {
      ...t.ctx,
      refreshSession: async () => {
        stored = await t.broker.refresh(t.ctx, stored);
        return stored;
      },
    };
    const session = stored;
    t.clock.time += MINUTE;
    t.fake.oauth.revokeAccessTokens();
    await t.broker.getHoldings(ctx, session, ACCOUNT);
    expect(stored.secrets.refreshToken).not.toBe(session.secrets.refreshToken);
    // After a restart only what was stored is known; its refresh token was not spent.
    const restarted = createSaxoBroker();
    const next = await restarted.refresh(t.ctx, stored);
    expect(next.expiresAt).toBe(t.clock.time + 60 * MINUTE);
  });

  it("a refresh on a server without the app's key and secret is no refusal of the sign-in", async () => {
    const session = await t.connect();
    const unset = await brokerFailure(t.broker.refresh({ ...t.ctx, clientSecret: undefined }, session));
    // Not AuthenticationError: that would deactivate every Saxo connection until each user reconnected.
    expect([unset.kind, unset.message]).toEqual([
      'BrokerUnavailable',
      'Saxo: SAXO_CLIENT_ID and SAXO_CLIENT_SECRET are not set',
    ]);
    // Nor is a secret Saxo refuses (invalid_client: mistyped, rotated): the grant is the user's.
    const wrong = await brokerFailure(t.broker.refresh({ ...t.ctx, clientSecret: 'rotated' }, session));
    expect(wrong.kind).toBe('BrokerUnavailable');
    expect((await t.broker.refresh(t.ctx, session)).secrets.refreshToken).not.toBe(session.secrets.refreshToken);
  });

  it('renews once when a read meets a 401 (empty body); an order is never sent twice', async () => {
    const session = await t.connect();
    t.clock.time += MINUTE;
    t.fake.oauth.revokeAccessTokens();
    t.fake.requests.length = 0;
    await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(tokenCalls()).toHaveLength(1);
    t.fake.oauth.revokeAccessTokens();
    t.fake.requests.length = 0;
    const refused = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([refused.kind, refused.message]).toEqual(['AuthenticationError', 'Saxo: not authorized; connect again']);
    expect(t.fake.placements()).toHaveLength(1);
  });
});
