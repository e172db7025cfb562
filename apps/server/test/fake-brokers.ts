// Tiny in-process brokers for tests of connections: an OAuth ('open') one and a credentials one,
// both with live (non-demo) accounts. Behaviour is switched through the returned handle.
import { type Broker, BrokerError, type BrokerSession, NO_CAPABILITIES, resendWithStoredToken } from '@router/brokers';

export interface FakeBrokerHandle {
  broker: Broker;
  /** Calls seen, for assertions. */
  calls: { connect: number; refresh: number; placeOrder: number };
  /** The next placeOrder fails as the broker rejecting the credentials (their refresh too). */
  rejectCredentials: boolean;
  /** placeOrder meets a refused access token (expired early, revoked) while the grant still renews. */
  refuseAccessToken: boolean;
  /** refreshAt of new sessions, relative to now (negative: already due). */
  refreshInMs: number;
  /** API keys whose refresh finds the broker unavailable. */
  unavailableFor: Set<string>;
  /** Refresh tokens are single use (Questrade, Schwab, Saxo): one sent again is refused. */
  singleUseRefresh: boolean;
  /** `apiKey:refreshToken` of the refreshes so far (each rotates the refresh token). */
  spentRefreshTokens: Set<string>;
  /** A refresh ends the access token it replaced (cTrader, Questrade): placeOrder refuses it. */
  endReplacedTokens: boolean;
}

const FAKE_ORDER = { id: 'B-1', status: 'filled', status_description: 'Filled', price: 1 } as const;

function fakeBroker(
  name: string,
  title: string,
  authentication: Broker['descriptor']['authentication'],
  connect: (credentials: Record<string, string>) => Record<string, string>,
): FakeBrokerHandle {
  const handle: FakeBrokerHandle = {
    calls: { connect: 0, refresh: 0, placeOrder: 0 },
    rejectCredentials: false,
    refuseAccessToken: false,
    refreshInMs: 3_600_000,
    unavailableFor: new Set(),
    singleUseRefresh: false,
    spentRefreshTokens: new Set(),
    endReplacedTokens: false,
    broker: undefined as unknown as Broker,
  };
  /** Access tokens a refresh replaced. */
  const ended = new Set<string>();
  const session = (secrets: Record<string, string>): BrokerSession => ({
    secrets,
    accounts: [
      { id: 'L-1', name: 'Live one', dataTitle: 'Margin', dataType: 'margin', dataCurrency: 'USD', demo: false },
      { id: 'D-2', name: 'Demo two', dataCurrency: 'USD', demo: true },
    ],
    expiresAt: Date.now() + 90 * 86_400_000,
    refreshAt: Date.now() + handle.refreshInMs,
  });
  handle.broker = {
    descriptor: {
      name,
      title,
      status: 'active',
      authentication,
      reference: { symbol: { required: true } },
      has: { ...NO_CAPABILITIES, refresh: true },
      clientOrderId: null,
    },
    authorizationUrl: (ctx, state) => ({
      requestUrl: `https://broker.example/authorize?client_id=${ctx.clientId ?? ''}&redirect_uri=${encodeURIComponent(ctx.redirectUrl ?? '')}&state=${state}`,
    }),
    async connect(_ctx, { credentials }) {
      handle.calls.connect += 1;
      return session(connect(credentials));
    },
    async refresh(_ctx, previous) {
      handle.calls.refresh += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (handle.unavailableFor.has(previous.secrets.apiKey ?? ''))
        throw new BrokerError('BrokerUnavailable', title, 'no answer within 10000 ms');
      if (handle.rejectCredentials) throw new BrokerError('AuthenticationError', title, 'token revoked');
      const sent = `${previous.secrets.apiKey ?? ''}:${previous.secrets.refreshToken ?? ''}`;
      if (handle.singleUseRefresh && handle.spentRefreshTokens.has(sent))
        throw new BrokerError('AuthenticationError', title, 'refresh token already used');
      handle.spentRefreshTokens.add(sent);
      const n = handle.calls.refresh + 1;
      ended.add(previous.secrets.accessToken ?? '');
      return session({ ...previous.secrets, accessToken: `access-${n}`, refreshToken: `refresh-secret-${n}` });
    },
    placeOrder: (ctx, current) =>
      // As the token brokers' adapters do: a token replaced by another instance's refresh is retried.
      resendWithStoredToken(
        ctx,
        current,
        (s) => s.secrets.accessToken,
        async (used) => {
          handle.calls.placeOrder += 1;
          if (handle.rejectCredentials) throw new BrokerError('AuthenticationError', title, 'token revoked');
          if (handle.refuseAccessToken) throw new BrokerError('AuthenticationError', title, 'access token expired');
          if (handle.endReplacedTokens && ended.has(used.secrets.accessToken ?? ''))
            throw new BrokerError('AuthenticationError', title, 'access token refused');
          return FAKE_ORDER;
        },
      ),
  };
  return handle;
}

/** 'oauthfake': authorization window; code 'good' connects, anything else is refused. */
export function fakeOAuthBroker(): FakeBrokerHandle {
  return fakeBroker('oauthfake', 'OAuth Fake', { type: 'open', help: 'Sign in at the broker' }, (credentials) => {
    if (credentials.code !== 'good')
      throw new BrokerError('AuthenticationError', 'OAuth Fake', 'invalid authorization code');
    return { accessToken: 'access-1', refreshToken: 'refresh-secret-1' };
  });
}

/** 'keyfake': API key and secret; secret 'sekret-ok' connects. */
export function fakeKeyBroker(): FakeBrokerHandle {
  return fakeBroker('keyfake', 'Key Fake', { type: 'credentials', credentials: ['apiKey', 'apiSecret'] }, (c) => {
    if (c.apiSecret !== 'sekret-ok') throw new BrokerError('AuthenticationError', 'Key Fake', 'invalid API key');
    return { apiKey: c.apiKey ?? '', apiSecret: c.apiSecret };
  });
}
