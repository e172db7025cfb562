// Broker connection and webhook inputs shared by the web forms and the server (SPEC §3, §5, §9).
import { z } from 'zod';

/** SPEC §3 connector status bits. */
export const CONNECTOR_STATUS = { RESTRICTED: 8, FOLLOWERS: 32, NOTIFICATIONS: 64 } as const;
/** SPEC §9: the authorization window closes after this long; a pending OAuth state expires too. */
export const CONNECTOR_TIMEOUT_MS = 300_000;
export const HOOK_NAME_MAX = 64;
export const ACCOUNT_NAME_MAX = 64;
/**
 * SPEC §9: a connector warns this many days before it expires; Schwab's weekly sign-in needs less.
 * Sessions that end every day by the broker's rule (Kite at 6 AM IST, E*TRADE at midnight ET;
 * their connect help says so) are not warned about: a daily warning and mail would be noise.
 * Nor is Saxo: its refresh token lasts about an hour and each refresh (the server's, every ~18
 * minutes) moves the expiry on, so it is always "within 6 days" and every refresh warned anew.
 */
export const EXPIRY_WARNING_DAYS = 6;
export const EXPIRY_WARNING_DAYS_BY_PROVIDER: Readonly<Record<string, number>> = {
  schwab: 3,
  zerodha: 0,
  etrade: 0,
  saxo: 0,
};
export const expiryWarningDays = (providerName: string): number =>
  EXPIRY_WARNING_DAYS_BY_PROVIDER[providerName] ?? EXPIRY_WARNING_DAYS;
/** `{PUBLIC_URL}/hook/{shortKey}`: 22 base62 characters. */
export const SHORT_KEY_PATTERN = /^[0-9A-Za-z]{22}$/;
/** The short key of an account's REST API hook (hooks.is_api) starts so: never a webhook's (SHORT_KEY_PATTERN). */
export const API_SHORT_KEY_PREFIX = 'api_';

const REQUIRED = 'Required';

/** One broker credential field: each required (SPEC §5). */
export const brokerCredentialSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(4096, 'At most 4096 characters');

/** Hook rename and account rename: name required (SPEC §5). */
export const hookNameSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(HOOK_NAME_MAX, `At most ${HOOK_NAME_MAX} characters`);

export const accountNameSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(ACCOUNT_NAME_MAX, `At most ${ACCOUNT_NAME_MAX} characters`);

export const hookCreateSchema = z.object({
  connectorKey: z.string({ error: REQUIRED }).min(1, REQUIRED),
  accountId: z.string({ error: REQUIRED }).min(1, REQUIRED),
  /** Blank gets a default name. */
  name: z.string().trim().max(HOOK_NAME_MAX, `At most ${HOOK_NAME_MAX} characters`).optional(),
  isTest: z.boolean().default(false),
});

/**
 * connectorUpdate's `accounts`: a JSON list of {id, name}; entries with an empty (or null) name are
 * skipped. Each name is checked as `accountNameSchema` afterwards, so a too long one says so.
 */
export const accountRenamesSchema = z
  .array(z.object({ id: z.string().min(1), name: z.string().max(4096).nullish() }))
  .max(1000);

export type HookCreateInput = z.input<typeof hookCreateSchema>;
export type AccountRename = z.infer<typeof accountRenamesSchema>[number];
