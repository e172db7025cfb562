// Developer applications (SPEC §3 UserApp, §5 "App name ... Callback URL") and the scopes a
// user grants them (SPEC §1, §2 consent: accounts, orders on request, holdings on request).
import { z } from 'zod';
import { MESSAGES } from './auth.ts';

export const USER_APP_NAME_MAX = 64;
export const USER_APP_DESCRIPTION_MAX = 256;
export const USER_APP_URL_MAX = 256;

export const USER_APP_MESSAGES = { invalidUrl: 'Invalid URL' } as const;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A host name ending in a top-level domain: letters, or an internationalized one as the URL parser
 * writes it (punycode: 'shop.рф' is 'shop.xn--p1ai').
 */
const HOST_WITH_TLD = /^([a-z0-9-]+\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

/**
 * SPEC §5 callback URL: an https URL whose host has a top-level domain; http only for
 * localhost (a developer's machine). No fragment: OAuth redirect URIs cannot carry one.
 */
export function isCallbackUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // An empty fragment ('…/cb#') parses to an empty hash: look at the text itself.
  if (value.includes('#') || url.username || url.password) return false;
  if (LOOPBACK.has(url.hostname)) return url.protocol === 'https:' || url.protocol === 'http:';
  return url.protocol === 'https:' && HOST_WITH_TLD.test(url.hostname);
}

export const userAppNameSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(USER_APP_NAME_MAX, `At most ${USER_APP_NAME_MAX} characters`);

export const userAppDescriptionSchema = z
  .string()
  .trim()
  .max(USER_APP_DESCRIPTION_MAX, `At most ${USER_APP_DESCRIPTION_MAX} characters`)
  .optional()
  .transform((v) => (v ? v : undefined));

export const userAppRedirectUrlSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(USER_APP_URL_MAX, `At most ${USER_APP_URL_MAX} characters`)
  .refine(isCallbackUrl, USER_APP_MESSAGES.invalidUrl);

/** The 'New application' form and `userAppCreate`. */
export const userAppSchema = z.object({
  name: userAppNameSchema,
  description: userAppDescriptionSchema,
  redirectUrl: userAppRedirectUrlSchema,
});

/** `userAppUpdate(key, metadata)`: the fields to change. */
export const userAppUpdateSchema = userAppSchema.partial().strict();

export type UserAppForm = z.input<typeof userAppSchema>;

/** What a user may let an application do, with the consent screen's words (SPEC §2). */
export const API_SCOPES = {
  'accounts:read': 'Read the list of your connected brokerage accounts',
  'orders:write': 'Submit orders on your request',
  'orders:read': 'Read the orders placed on your connected accounts',
  'holdings:read': 'Obtain your holdings on request',
} as const;

export type ApiScope = keyof typeof API_SCOPES;
export const API_SCOPE_NAMES = Object.keys(API_SCOPES) as ApiScope[];

/** OpenID scopes an application may also ask for. */
export const IDENTITY_SCOPES = {
  openid: 'Know your account identifier',
  offline_access: 'Keep access while you are away',
} as const;

export function scopeDescription(scope: string): string | undefined {
  return (API_SCOPES as Record<string, string>)[scope] ?? (IDENTITY_SCOPES as Record<string, string>)[scope];
}

/** GET /api/oauth/interaction: what a consent screen shows (SPEC §2 consent screens). */
export interface ConsentDetails {
  uid: string;
  client: { key: string; name: string; description: string | null };
  scopes: Array<{ name: string; description: string }>;
  /** The legacy variant's email (the application's login_hint). */
  email: string | null;
  /** For a signed-in caller: what 'Grant access' sends back as `token`; else null. */
  token: string | null;
}
