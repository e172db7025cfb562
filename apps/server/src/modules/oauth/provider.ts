// The OAuth 2.0 / OpenID Connect provider (oidc-provider, mounted at /oidc; issuer
// PUBLIC_URL/oidc). The library owns the protocol; we supply storage (adapter.ts), accounts
// (users by key), clients (developer applications) and the consent screens (interaction.ts).
// Authorization code with PKCE (S256, required), refresh tokens, exact redirect URIs.
import { timingSafeEqual } from 'node:crypto';
import { API_SCOPE_NAMES } from '@router/shared';
import Provider, { type Configuration, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { findUserByKey } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { hashToken } from '../auth/tokens.ts';
import { createAdapter } from './adapter.ts';
import { cookieKeys, signingKey } from './keys.ts';
import { ACCESS_TOKEN_TTL_S, GRANT_TTL_S, REFRESH_TOKEN_TTL_S } from './lifetimes.ts';
import { errorPage, logoutPage, signedOutPage } from './pages.ts';

export const OIDC_PATH = '/oidc';
/** The interaction cookie goes to our consent endpoints only. */
export const OAUTH_API_PATH = '/api/oauth';
export const SCOPES = ['openid', 'offline_access', ...API_SCOPE_NAMES];

/** Every authorization is confirmed by the signed-in user of the web app, whatever the provider remembers. */
function policy() {
  const base = interactionPolicy.base();
  base
    .get('login')
    ?.checks.push(
      new interactionPolicy.Check('confirm', 'the user confirms every authorization', (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  return base;
}

/** The consent screen: the legacy variant when the application names the user's email (login_hint). */
function interactionUrl(_ctx: KoaContextWithOIDC, interaction: { uid: string; params: Record<string, unknown> }) {
  const query = new URLSearchParams({ uid: interaction.uid, client_id: String(interaction.params.client_id ?? '') });
  const email = interaction.params.login_hint;
  if (typeof email === 'string' && email) {
    query.set('email', email);
    return `/signin/partner?${query}`;
  }
  return `/signin/oauth?${query}`;
}

async function configuration(services: Services): Promise<Configuration> {
  return {
    adapter: createAdapter(services),
    clients: [],
    async findAccount(_ctx, sub) {
      const user = await findUserByKey(services.db, sub);
      return user ? { accountId: user.key, claims: () => ({ sub: user.key }) } : undefined;
    },
    scopes: SCOPES,
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    // What every application registers (adapter.ts clientMetadata): its secret, in the Basic header
    // or the form. Discovery lists these alone; the library's default also named `none` and the
    // JWT assertions, which every application is refused with (it has no registered key, and its
    // secret is kept as a hash, so no client_secret_jwt signed with it could be checked).
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // Sender-constrained tokens would need the proof checked by every API route; not offered.
      dPoP: { enabled: false },
      // An application may introspect only the tokens issued to it.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      // The library's own pages here are samples with inline styles and a font from another
      // origin, which the strict Content-Security-Policy blocks: ours instead (pages.ts).
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContextWithOIDC, form: string) {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          ctx.type = 'html';
          ctx.body = signedOutPage(ctx.oidc.client?.clientName);
        },
      },
    },
    interactions: { policy: policy(), url: interactionUrl },
    cookies: {
      keys: cookieKeys(services),
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true, path: OAUTH_API_PATH },
    },
    // Our applications are confidential clients: refresh tokens without asking for offline_access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every refresh spends its refresh token and answers a new one; a spent one presented again
    // (a copy used by someone else) ends the grant (the library's reuse detection, adapter.ts for
    // two requests at once). Without it a copied refresh token kept working beside the
    // application's for up to 21 days unnoticed (the library rotates only past 70 % of the TTL).
    rotateRefreshToken: true,
    // Tokens live by their grant; the provider's own browser session is short (policy() above).
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      Grant: GRANT_TTL_S,
      Session: 600,
    },
    jwks: { keys: [await signingKey(services)] },
    clientBasedCORS: () => false,
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(
        String(out.error),
        out.error_description === undefined ? undefined : String(out.error_description),
      );
    },
  } as Configuration;
}

/** Applications' secrets are stored as SHA-256: compare the hash of what the client sent. */
function compareHashedSecret(this: { clientSecret?: string }, actual: string): boolean {
  const stored = Buffer.from(this.clientSecret ?? '');
  const given = Buffer.from(hashToken(actual));
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/**
 * An application registers its callback URL alone, no post-logout address; its sign-out (the
 * end_session_endpoint, where client libraries send `post_logout_redirect_uri`) may return to an
 * address on that callback URL's origin, which the application's owner already answers for. Every
 * other address is refused, as before (no open redirect).
 */
function onCallbackOrigin(this: { redirectUris?: string[] }, value: string): boolean {
  const url = URL.parse(value);
  if (!url || value.includes('#') || url.username || url.password) return false;
  return (this.redirectUris ?? []).some((registered) => URL.parse(registered)?.origin === url.origin);
}

/**
 * Every URL the provider writes (discovery's endpoints, the resume redirect) is PUBLIC_URL's, as
 * its issuer is: Koa would take the origin from the request's Host, or behind a trusted proxy its
 * X-Forwarded-Host and -Proto, which a client writes (a cached discovery document naming another
 * host would send applications' secrets and codes there).
 */
function pinOrigin(provider: Provider, publicUrl: string): void {
  const origin = new URL(publicUrl);
  const protocol = origin.protocol.slice(0, -1);
  Object.defineProperties(provider.request, {
    host: { get: () => origin.host },
    protocol: { get: () => protocol },
    href: {
      get(this: { originalUrl: string }) {
        const url = new URL(this.originalUrl, origin);
        return `${origin.origin}${url.pathname}${url.search}`;
      },
    },
  });
}

async function createProvider(services: Services): Promise<Provider> {
  const provider = new Provider(`${services.config.PUBLIC_URL}${OIDC_PATH}`, await configuration(services));
  provider.proxy = services.config.TRUST_PROXY > 0;
  provider.maxIpsCount = services.config.TRUST_PROXY;
  pinOrigin(provider, services.config.PUBLIC_URL);
  provider.Client.prototype.compareClientSecret = compareHashedSecret;
  provider.Client.prototype.postLogoutRedirectUriAllowed = onCallbackOrigin;
  provider.on('server_error', (_ctx: unknown, err: Error) => services.log.error({ err }, 'oauth provider error'));
  // A new access token passes its address's failed-token limit from its first use, as a new
  // personal token does (issueSession): an application's server, calling for all its users from
  // one address, is not locked out of its fresh tokens by the revoked ones it still tries.
  // An opaque token's value is its id.
  provider.on('access_token.saved', (token: { jti: string }) =>
    services.identity.failedAuth.succeeded(hashToken(token.jti)),
  );
  return provider;
}

const providers = new WeakMap<Services, Promise<Provider>>();

/** The provider of this server, made on first use (the library is loaded only then). */
export function oauthProvider(services: Services): Promise<Provider> {
  let provider = providers.get(services);
  if (!provider) {
    provider = createProvider(services);
    provider.catch(() => providers.delete(services));
    providers.set(services, provider);
  }
  return provider;
}
