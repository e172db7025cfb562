import { vi } from 'vitest';

export interface FakeUser {
  key: string;
  group: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  pendingEmail: string | null;
  reamazeAuthKey: string | null;
}

export const fakeUser = (group: number): FakeUser => ({
  key: 'user-1',
  group,
  email: 'jo@example.com',
  firstName: 'Jo',
  lastName: null,
  pendingEmail: null,
  reamazeAuthKey: null,
});

export const PROVIDERS_JSON = JSON.stringify([
  { name: 'paper', title: 'Paper trading', status: 'active', authentication: { type: 'credentials', credentials: [] } },
]);

export interface GraphQLPayload {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

export interface FakeRequest {
  name: string;
  variables: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Answers one operation (by name) from a test's fixtures: a GraphQL body, or an HTTP answer of its own. */
export type FakeHandler = (request: FakeRequest) => GraphQLPayload | Response | Promise<GraphQLPayload | Response>;

/** What a proxy or the server answers when it cannot serve: no GraphQL body (a page, `{status, message}`). */
export const httpFailure = (status: number, body: string, headers: Record<string, string> = {}): Response =>
  new Response(body, { status, headers: { 'content-type': 'text/html', ...headers } });

/** A GraphQL error as the server sends it (SPEC §8), e.g. a validation message. */
export const graphQLError = (message: string, code = 'BAD_USER_INPUT'): GraphQLPayload => ({
  data: null,
  errors: [{ message, extensions: { code } }],
});

const UNAUTHENTICATED = graphQLError('Sign in first', 'UNAUTHENTICATED');

/** Answers of the identity screens every route test may touch, when a test gives none. */
const DEFAULTS: Record<string, FakeHandler> = {
  AuthProviders: () => ({
    data: { authProviders: { google: false, googleClientId: null, apple: false, appleClientId: null } },
  }),
  Signout: () => ({ data: { signout: true } }),
  Site: () => ({ data: { site: { publicUrl: 'http://localhost', supportEmail: null } } }),
  UserPasscode: () => ({
    data: {
      userPasscode: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', isActive: false, recoveryCodesLeft: 0 },
    },
  }),
  UserTokens: () => ({ data: { userTokens: [] } }),
  AuthorizedApps: () => ({ data: { userTokens: [] } }),
  UserApps: () => ({ data: { userApps: [] } }),
  Connectors: () => ({ data: { connectors: [] } }),
  Hooks: () => ({ data: { hooks: [] } }),
  PlaygroundConnectors: () => ({ data: { connectors: [] } }),
  // The dashboard (/me): one active broker (so no welcome tour), an empty log and chart.
  DashboardConnectors: () => ({ data: { connectors: [{ key: 'c1', isActive: true }] } }),
  DashboardAccount: () => ({ data: { account: { balance: 5, unlimited: false } } }),
  // The low-credit banner of every signed-in screen: credits aplenty, so no banner.
  CreditsBanner: () => ({ data: { account: { balance: 5, lastGrant: 5, unlimited: false, cardPayments: false } } }),
  // Account & Billing: the sign-up credits, nothing spent.
  AccountCredits: () => ({
    data: {
      account: {
        type: 1,
        metadata: '{"creditsTotal":5,"recurring":{},"payments":[]}',
        product: null,
        payments: [],
        balance: 5,
        credits: 5,
        recurringCredits: 0,
        recurringPeriodCredits: 0,
        recurringPeriodEnd: null,
        signalsSpent: 0,
        unlimited: false,
        cardPayments: false,
      },
    },
  }),
  AccountProducts: () => ({ data: { accountProducts: [] } }),
  // The sign-up card form: a session, on a server without a publishable key.
  AccountSignupPaymentSession: () => ({
    data: {
      accountSignupPaymentSession: {
        clientSecret: 'cs_1_secret_1',
        total: 1099,
        description: 'Pack',
        publishableKey: null,
      },
    },
  }),
  AccountLedger: () => ({
    data: {
      accountLedger: [{ id: 1, createdAt: Date.UTC(2024, 0, 31), credits: 5, cause: 'signup', balanceAfter: 5 }],
    },
  }),
  DashboardOrderCounters: () => ({ data: { actionsOrderCounters: [{ counter: 0, counterTest: 0 }] } }),
  DashboardOrderStats: () => ({ data: { actionsOrderStats: [] } }),
  ActivityActions: () => ({ data: { actions: [] } }),
  // Sign-up: a referral code that is not a campaign; the admin screen: an empty audit log.
  SignupReferrer: () => ({ data: { signupReferrer: null } }),
  AdminAuditLog: () => ({ data: { adminAuditLog: [] } }),
  // The live stream (features/live): stays open and silent unless a test answers it.
  Live: () => new Promise<GraphQLPayload>(() => {}),
  TourConnectorActivations: () => ({ data: { actions: [] } }),
  // The playground's note on the webhooks' symbol maps: none.
  PlaygroundHooks: () => ({ data: { hooks: [] } }),
  // A connector card's notification settings (those of accounts no longer connected): none.
  ConnectorNotifications: () => ({ data: { notifications: [] } }),
  // A webhook's settings: no queued signals.
  QueuedSignals: () => ({ data: { queuedSignals: [] } }),
};

function parseRequest(input: RequestInfo | URL, init?: RequestInit): FakeRequest {
  const url = new URL(String(input), 'http://localhost');
  const body =
    typeof init?.body === 'string'
      ? (JSON.parse(init.body) as { operationName?: string; variables?: Record<string, unknown> })
      : {};
  const queryVariables = url.searchParams.get('variables');
  return {
    name: url.searchParams.get('operationName') ?? body.operationName ?? '',
    variables: body.variables ?? (queryVariables ? (JSON.parse(queryVariables) as Record<string, unknown>) : {}),
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
  };
}

/**
 * A GraphQL endpoint for component tests: the test's `handlers` by operation name, else User
 * and Providers for the shell and the defaults above. Anything else is UNAUTHENTICATED.
 */
export function fakeGraphQL(options: { user?: FakeUser | null; handlers?: Record<string, FakeHandler> } = {}) {
  const operations: string[] = [];
  const requests: FakeRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = parseRequest(input, init);
    operations.push(request.name);
    requests.push(request);
    const own = options.handlers?.[request.name];
    const payload: GraphQLPayload | Response = own
      ? await own(request)
      : request.name === 'Providers'
        ? { data: { providers: PROVIDERS_JSON } }
        : request.name === 'User'
          ? options.user
            ? { data: { user: options.user } }
            : UNAUTHENTICATED
          : await (DEFAULTS[request.name] ?? (() => UNAUTHENTICATED))(request);
    if (payload instanceof Response) return payload;
    return new Response(JSON.stringify(payload), { headers: { 'content-type': 'application/json' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, operations, requests };
}

/** Wraps a dynamic answer (keeps PascalCase operation keys from reading as components to lint). */
export const fixture = (handler: FakeHandler): FakeHandler => handler;
