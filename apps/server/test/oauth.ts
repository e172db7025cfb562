// OAuth tests against a real listening server: a professional's application, a signed-in user,
// and a small cookie jar to drive the browser's part of the authorization code flow (the
// provider's redirects and the consent form) with fetch.
import net from 'node:net';
import * as client from 'openid-client';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { bearer, confirmedUser, gql } from './identity.ts';

export interface OAuthServer extends TestApp {
  baseUrl: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The app on a real port with PUBLIC_URL set to it (the provider's issuer derives from it). */
export async function startOAuthServer(
  env: Record<string, string> = {},
  options: Pick<TestAppOptions, 'now'> = {},
): Promise<OAuthServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ ...options, env: { PUBLIC_URL: baseUrl, ...env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, baseUrl };
}

export const CALLBACK = 'http://localhost:4567/callback';

/** A confirmed user with the professional bit, and an application of theirs. */
export async function professionalWithApp(t: TestApp, email: string, redirectUrl = CALLBACK) {
  const owner = await confirmedUser(t, email);
  await t.services.db.$client.query('update users set "group" = "group" | 16 where id = $1', [owner.id]);
  const created = await gql<{ userAppCreate: { key: string; secret: string } }>(
    t.app,
    'mutation($n: String!, $u: String!) { userAppCreate(name: $n, redirectUrl: $u) { key secret } }',
    { n: 'Journal Pro', u: redirectUrl },
    bearer(owner.token),
  );
  if (!created.data) throw new Error(JSON.stringify(created.errors));
  return { owner, app: created.data.userAppCreate };
}

/** Cookies as a browser keeps them: by name and path, sent where the path matches. */
export class CookieJar {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split(/=(.*)/s);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^expires=thu, 01 jan 1970/i.test(a)) || value === '';
      if (expired) this.#cookies.delete(`${name}@${path}`);
      else this.#cookies.set(`${name}@${path}`, { value, path });
    }
  }

  header(url: string): string {
    const { pathname } = new URL(url);
    return [...this.#cookies.entries()]
      .filter(([, c]) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([key, c]) => `${key.split('@')[0]}=${c.value}`)
      .join('; ');
  }
}

/** A browser's request: cookies sent and kept, redirects not followed. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(response);
  return response;
}

export const location = (response: Response, base: string): string => {
  const value = response.headers.get('location');
  if (!value) throw new Error(`no redirect (status ${response.status}): ${response.statusText}`);
  return new URL(value, base).href;
};

export interface AuthorizationStart {
  jar: CookieJar;
  verifier: string;
  state: string;
  /** The consent screen the provider sent the browser to. */
  consentUrl: URL;
}

export async function discover(server: OAuthServer, app: { key: string; secret: string }) {
  return client.discovery(new URL(`${server.baseUrl}/oidc`), app.key, app.secret, undefined, {
    execute: [client.allowInsecureRequests],
  });
}

/** The application sends the browser to the provider; the provider answers with the consent screen. */
export async function startAuthorization(
  config: client.Configuration,
  server: OAuthServer,
  params: Record<string, string> = {},
  /** The browser: a new one unless given. */
  jar = new CookieJar(),
): Promise<AuthorizationStart> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid accounts:read orders:write',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...params,
  });
  const response = await browse(jar, url.href);
  return { jar, verifier, state, consentUrl: new URL(location(response, server.baseUrl)) };
}

/**
 * The signed-in user grants access on the consent screen (details, then the form post) and the
 * browser follows the provider back to the application: the callback URL it lands on.
 */
export async function grantAccess(server: OAuthServer, start: AuthorizationStart, sessionToken: string) {
  const uid = start.consentUrl.searchParams.get('uid') ?? '';
  const details = await browse(start.jar, `${server.baseUrl}/api/oauth/interaction?uid=${uid}`, {
    headers: { authorization: `Bearer ${sessionToken}` },
  });
  const { token } = (await details.json()) as { token: string };
  const posted = await browse(start.jar, `${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ access_token: sessionToken, token }),
  });
  const resumed = await browse(start.jar, location(posted, server.baseUrl));
  return new URL(location(resumed, server.baseUrl));
}
