// The sign-in side of the Tradovate protocol fake: the credentials grant (failures as HTTP 200
// {"errorText"}), tokens that run out 80 minutes after issue on the fake's clock, renewal in
// the same session, at most two sessions per user (a third closes the oldest, as Tradovate
// does), and penalty tickets: a request answered with {"p-ticket","p-time","p-captcha"} is let
// through only when sent again with that ticket after p-time seconds (real time).
import { randomBytes } from 'node:crypto';

export interface FakeUser {
  name: string;
  password: string;
  cid: number;
  sec: string;
  userId: number;
  hasLive: boolean;
  passwordExpiration: string;
}

const TOKEN_MS = 80 * 60_000;
const MAX_SESSIONS = 2;
const CREDENTIAL_FIELDS = {
  name: 'string',
  password: 'string',
  appId: 'string',
  appVersion: 'string',
  deviceId: 'string',
  cid: 'number',
  sec: 'string',
} as const;

type Json = Record<string, unknown>;

export function createFakeAuth(users: FakeUser[], now: () => number) {
  const tokens = new Map<string, { userId: number; session: number; expiresAt: number }>();
  const sessions = new Map<number, number[]>();
  const tickets = new Map<string, { path: string; validAfter: number }>();
  const penalties: Array<{ path: string; seconds: number; captcha: boolean }> = [];
  let nextSession = 5_550_001;

  function issue(user: FakeUser, session: number): Json {
    const accessToken = randomBytes(24).toString('base64url');
    const expiresAt = now() + TOKEN_MS;
    tokens.set(accessToken, { userId: user.userId, session, expiresAt });
    return {
      accessToken,
      mdAccessToken: randomBytes(24).toString('base64url'),
      expirationTime: new Date(expiresAt).toISOString(),
      passwordExpirationTime: user.passwordExpiration,
      userStatus: 'Active',
      userId: user.userId,
      name: user.name,
      hasLive: user.hasLive,
    };
  }

  /** POST /auth/accesstokenrequest: schema violations, wrong credentials, or a new session. */
  function accessTokenRequest(body: Json): Json {
    const violations = Object.entries(CREDENTIAL_FIELDS)
      .filter(([field, type]) => typeof body[field] !== type || (type === 'number' && !Number.isInteger(body[field])))
      .map(([field, type]) => `${field}: ${type} required`);
    if (violations.length) return { violations };
    const user = users.find((item) => item.name === body.name);
    if (!user || user.password !== body.password || user.cid !== body.cid || user.sec !== body.sec)
      return { errorText: 'Incorrect username or password. Please try again.' };
    const open = sessions.get(user.userId) ?? [];
    const session = nextSession++;
    open.push(session);
    // Beyond two sessions the oldest is closed, and its tokens stop working.
    while (open.length > MAX_SESSIONS) {
      const closed = open.shift();
      for (const [token, entry] of tokens) if (entry.session === closed) tokens.delete(token);
    }
    sessions.set(user.userId, open);
    return issue(user, session);
  }

  /** The user and session a Bearer header signs in, or undefined (expired, unknown, closed session). */
  function signedIn(header: string | undefined): { user: FakeUser; session: number } | undefined {
    const entry = tokens.get(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
    if (!entry || entry.expiresAt <= now()) return undefined;
    const user = users.find((item) => item.userId === entry.userId);
    return user ? { user, session: entry.session } : undefined;
  }

  /** GET /auth/renewaccesstoken: a new token in the same session. */
  function renew(header: string | undefined): Json | undefined {
    const found = signedIn(header);
    return found ? issue(found.user, found.session) : undefined;
  }

  /** The penalty answer for this request, or undefined to let it through. */
  function penalty(path: string, body: Json): Json | undefined {
    const presented = typeof body['p-ticket'] === 'string' ? tickets.get(body['p-ticket']) : undefined;
    if (presented && presented.path === path && Date.now() >= presented.validAfter) {
      tickets.delete(String(body['p-ticket']));
      return undefined;
    }
    const index = penalties.findIndex((item) => item.path === path);
    const planned = index >= 0 ? penalties.splice(index, 1)[0] : undefined;
    const wait = presented
      ? { seconds: Math.ceil((presented.validAfter - Date.now()) / 1000), captcha: false }
      : planned;
    if (!wait) return undefined;
    const ticket = randomBytes(12).toString('hex');
    tickets.set(ticket, { path, validAfter: Date.now() + wait.seconds * 1000 });
    return { 'p-ticket': ticket, 'p-time': wait.seconds, 'p-captcha': wait.captcha };
  }

  return {
    accessTokenRequest,
    signedIn,
    renew,
    penalty,
    /** The next request to `path` gets a penalty ticket of `seconds`. */
    penalize: (path: string, seconds: number, captcha = false) => {
      penalties.push({ path, seconds, captcha });
    },
    expireTokens: () => {
      for (const entry of tokens.values()) entry.expiresAt = 0;
    },
    sessionsOf: (userId: number) => sessions.get(userId)?.length ?? 0,
  };
}

export type FakeAuth = ReturnType<typeof createFakeAuth>;
