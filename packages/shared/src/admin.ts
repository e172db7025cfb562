// Admin tools (SPEC §2 Admin, §5, §9): the forms' inputs, shared by the admin screen and the
// server, their messages, and the audit log's action names.
import { z } from 'zod';
import { emailSchema, MESSAGES } from './auth.ts';

/** SPEC §9. */
export const DEFAULT_REWARD_CREDITS = 25;
export const DEFAULT_REFERRER_CREDITS = 100;
export const REFERRER_NAME_MAX = 16;
/** Far above any sensible reward or campaign; a typo of a few zeros is refused. */
export const ADMIN_CREDITS_MAX = 1_000_000;

export const ADMIN_TEXT = {
  /** SPEC §2, §8: a proxied email that is not a confirmed user. */
  notActivated: 'User not registered or not activated',
  applied: 'Applied',
  rewarded: 'Successfully added',
  referrerDeleted: 'Deleted the referrer link',
  referrerLinkHint: 'Complete and submit the form to get referrer link',
  /** SPEC §8: admin forms when the message is empty or 'Error'. */
  failed: 'Something went wrong...',
  specialCharacters: 'Special characters are not allowed',
  nameRequired: 'Required, if brokerage is not selected',
  unknownReferrer: 'This referral code is not valid',
  deletedReferrer: 'This referral link has been deleted: signing up through it gives no extra signals',
  unknownReferrerLink: 'No referrer link with this code',
  referrerAlreadyDeleted: 'This referrer link was deleted already',
  unknownBrokerage: 'Unknown brokerage',
  rewardKeyReused: 'This idempotency key was used for another reward',
} as const;

/**
 * What a live webhook's shortKey (and the end of its URL) reads as in admin proxy mode: the URL
 * places orders with no sign-in and no audit entry, so it is the user's alone.
 */
export const HIDDEN_SHORT_KEY = 'hidden-while-acting-as-the-user';
export const HIDDEN_HOOK_URL_TEXT =
  "Only the user can see this webhook's URL or send signals to it: it places orders in their account.";

/** Credits an administrator gives: required, numeric, a whole number greater than 0 (SPEC §5). */
export const adminCreditsSchema = z
  .number({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Must be a number') })
  .refine((n) => !Number.isNaN(n), 'Must be a number')
  .refine((n) => n > 0, 'Must be greater than 0')
  .refine((n) => Number.isInteger(n), 'Must be a whole number')
  .refine((n) => n <= ADMIN_CREDITS_MAX, `At most ${ADMIN_CREDITS_MAX}`);

/** Proxy and the target of other admin calls: lower-cased (SPEC §2 Save lowercases the email). */
export const adminEmailSchema = emailSchema.transform((email) => email.toLowerCase());

export const adminProxySchema = z.object({ email: adminEmailSchema });

/**
 * Names one submission of the reward form: a resubmission with the same key (an answer lost to
 * the network, a double click) grants nothing more and answers as the first did.
 */
export const adminIdempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'The idempotency key must be 8 to 64 letters, digits, - or _');

export const adminRewardSchema = z.object({
  email: adminEmailSchema,
  credits: adminCreditsSchema,
  idempotencyKey: adminIdempotencyKeySchema.nullish(),
});

/** '- None -' in the brokerage select is the empty string. */
const providerNameSchema = z
  .string()
  .trim()
  .max(64)
  .optional()
  .nullable()
  .transform((v) => v || undefined);

export const referrerNameSchema = z
  .string()
  .trim()
  .max(REFERRER_NAME_MAX, `At most ${REFERRER_NAME_MAX} characters`)
  .regex(/^[\p{L}\p{N}\s]*$/u, ADMIN_TEXT.specialCharacters);

/** SPEC §5 Referrer: name optional when a brokerage is chosen; credits required, greater than 0. */
export const referrerCreateSchema = z
  .object({
    name: referrerNameSchema.optional().nullable(),
    providerName: providerNameSchema,
    credits: adminCreditsSchema,
  })
  // Checked even while the credits are wrong (zod skips an object's refinements then by default):
  // both errors show on the first submit.
  .refine((value) => Boolean(value.name || value.providerName), {
    path: ['name'],
    message: ADMIN_TEXT.nameRequired,
    when: () => true,
  })
  .transform(({ name, providerName, credits }) => ({ name: name || undefined, providerName, credits }));

export const referrerDeleteSchema = z.object({
  referrerCodeOrUrl: z.string({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).max(2048),
});

export type ReferrerCreateInput = z.input<typeof referrerCreateSchema>;

/** A badly percent-encoded value (`%E0%A4%A`) is no code: '' rather than decodeURIComponent's URIError. */
function decodedOrEmpty(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

/**
 * The code of a referrer link given as the link itself, its path or its suffix:
 * 'https://host/signup/k7m2q9xa', '/signup/k7m2q9xa/', 'https://host/signup?code=k7m2q9xa', 'k7m2q9xa'.
 */
export function referrerCodeOf(text: string): string {
  const value = text.trim();
  const query = /[?&]code=([^&#]+)/.exec(value)?.[1];
  if (query) return decodedOrEmpty(query).trim().toLowerCase();
  const path = value.split(/[?#]/)[0] ?? '';
  const segments = path.split('/').filter(Boolean);
  return (segments.at(-1) ?? '').toLowerCase();
}

/** What the audit log records (adminAuditLog `action`). */
export const AUDIT_ACTIONS = {
  proxyOn: 'proxy_on',
  proxyOff: 'proxy_off',
  reward: 'reward',
  referrerCreate: 'referrer_create',
  referrerDelete: 'referrer_delete',
  statsDownload: 'stats_download',
  professionalGrant: 'professional_grant',
  professionalRemove: 'professional_remove',
  proxiedMutation: 'proxied_mutation',
  hooksPauseAll: 'hooks_pause_all',
  hooksResumeAll: 'hooks_resume_all',
} as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  proxy_on: 'Proxy on',
  proxy_off: 'Proxy off',
  reward: 'Reward',
  referrer_create: 'Referral campaign created',
  referrer_delete: 'Referral campaign deleted',
  stats_download: 'Stats downloaded',
  professional_grant: 'Professional status granted',
  professional_remove: 'Professional status removed',
  proxied_mutation: 'Change while proxied',
  hooks_pause_all: 'Webhooks of every user paused',
  hooks_resume_all: 'Webhooks of every user resumed',
};

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/** Audit entries per page, and at most per request. */
export const AUDIT_PAGE_SIZE = 20;
export const AUDIT_PAGE_MAX = 100;

/** The stats report (adminReferrerStatsReport): a header row, then one row per campaign. */
export const REFERRER_STATS_COLUMNS = [
  'name',
  'code',
  'signups',
  'confirmed signups',
  'paying users',
  'signals sent',
  'credits granted',
  'brokerage',
  'deleted at',
] as const;
