// SPEC §4 Action wording: the one-line description of an activity-log entry, shared by the
// server (which also searches it; db/repositories/action-description.sql.ts mirrors this in SQL,
// and a test holds the two equal) and the web app's 'Last actions' panel.

import { API_SHORT_KEY_PREFIX } from './connectors.ts';
import { isObject, type JsonObject as Json } from './json.ts';

/** SPEC §3 Action codes. */
export const ACTION_CODES = [
  'Signin',
  'AuthPasswordReset',
  'AuthPasswordResetRequest',
  'ConnectorCreate',
  'ConnectorActivate',
  'ConnectorDeactivate',
  'ConnectorDelete',
  'HookCreate',
  'HookDelete',
  'Order',
] as const;

export type ActionCode = (typeof ACTION_CODES)[number];

/** Codes of our own beside SPEC's, worded too (a trader reads what became of a hook or a signal). */
export const OWN_ACTION_CODES = [
  'HookActivate',
  'HookDeactivate',
  'HookRules',
  'HooksPause',
  'HooksResume',
  'QueuedSignalCancel',
] as const;

type Path = readonly string[];

/** Where each value is looked for, first hit wins (SPEC §3 Action metadata fields). */
export const METADATA_PATHS = {
  provider: [['providerName'], ['connector', 'providerName'], ['provider'], ['provider', 'name']],
  key: [['shortKey'], ['key'], ['hook', 'shortKey'], ['hook', 'key'], ['hook']],
  name: [['name'], ['hook', 'name']],
  account: [['account'], ['accountId'], ['account', 'id'], ['hook', 'accountId']],
} as const satisfies Record<string, readonly Path[]>;

/** Metadata as an object: the API sends it as a JSON string; anything else is empty. */
export function parseActionMetadata(metadata: unknown): Json {
  if (typeof metadata === 'string') {
    try {
      return parseActionMetadata(JSON.parse(metadata));
    } catch {
      return {};
    }
  }
  return isObject(metadata) ? metadata : {};
}

function at(value: unknown, path: Path): unknown {
  let current = value;
  for (const step of path) {
    if (!isObject(current)) return undefined;
    current = current[step];
  }
  return current;
}

/** Strings as they are, numbers as text; anything else is absent. */
function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function first(m: Json, paths: readonly Path[]): string | null {
  for (const path of paths) {
    const value = scalar(at(m, path));
    if (value !== null) return value;
  }
  return null;
}

/** `accounts` or `accountIds` (ids or `{id}` objects) joined as 'a, #b'; else the single account. */
function accountIds(m: Json): string {
  const list = Array.isArray(m.accounts) ? m.accounts : Array.isArray(m.accountIds) ? m.accountIds : [];
  const ids = list.map((item: unknown) => scalar(item) ?? scalar(at(item, ['id']))).filter((id) => id !== null);
  return ids.length > 0 ? ids.join(', #') : (first(m, METADATA_PATHS.account) ?? '');
}

/**
 * An Order call failed when the response status is 'rejected' or an API error status
 * (ValidationError, ExecutionError, ...: SPEC §8), or the response carries an error.
 */
export function isFailedOrderCall(metadata: unknown): boolean {
  const m = parseActionMetadata(metadata);
  const status = scalar(at(m, ['response', 'status']));
  const error = at(m, ['response', 'error']);
  if (status === 'rejected' || (status?.includes('Error') ?? false)) return true;
  return error !== undefined && error !== null && error !== false && error !== '';
}

const FIXED: Record<string, string> = {
  Signin: 'You signed in to the dashboard',
  AuthPasswordReset: 'You reset the password',
  AuthPasswordResetRequest: 'You requested password reset',
};

/** A provider's title by its name (as the connector list and the docs show it), if known. */
export type ProviderTitles = Readonly<Record<string, string>>;

/**
 * SPEC §4 wording, and ours for OWN_ACTION_CODES. Codes with fixed wording never need metadata;
 * the others show the raw code when the metadata is empty; unknown codes show '-'. Missing values
 * inside a sentence are left empty. {provider} is the provider's title ('Paper Trading', as every
 * other screen names it) where `titles` knows the name, else the name as recorded.
 * `metadata` may be the object or its JSON string.
 */
export function describeAction(code: string, metadata: unknown, titles: ProviderTitles = {}): string {
  const fixed = FIXED[code];
  if (fixed !== undefined) return fixed;
  if (!([...ACTION_CODES, ...OWN_ACTION_CODES] as readonly string[]).includes(code)) return '-';
  const m = parseActionMetadata(metadata);
  if (Object.keys(m).length === 0) return code;
  const recorded = first(m, METADATA_PATHS.provider) ?? '';
  const provider = Object.hasOwn(titles, recorded) ? (titles[recorded] ?? recorded) : recorded;
  const key = first(m, METADATA_PATHS.key) ?? '';
  const name = first(m, METADATA_PATHS.name) ?? '';
  const account = first(m, METADATA_PATHS.account) ?? '';
  const withProvider = (text: string) => (provider === '' ? text : `${provider} ${text}`);
  const reason = scalar(m.reason) ?? '';
  const because = (text: string) => (reason === '' ? text : `${text}: ${reason}`);
  switch (code) {
    case 'ConnectorCreate':
    case 'ConnectorActivate':
      return `${provider} account(s) #${accountIds(m)} connected`;
    case 'ConnectorDeactivate':
      return withProvider('connection disabled');
    case 'ConnectorDelete':
      return withProvider('disconnected');
    case 'HookCreate':
      return `Webhook ${key} (${name}) created for ${provider} #${account}`;
    case 'HookDelete':
      return `Webhook ${key} (${name}) removed from ${provider} #${account}`;
    case 'HookActivate':
      return `Webhook ${key} (${name}) reactivated`;
    case 'HookDeactivate':
      return because(`Webhook ${key} (${name}) deactivated`);
    case 'HookRules':
      return `Webhook ${key} (${name}) controls changed`;
    case 'HooksPause':
      return because('Webhooks paused');
    case 'HooksResume':
      return 'Webhooks resumed';
    case 'QueuedSignalCancel':
      return because(`Queued signal ${scalar(m.id) ?? ''} cancelled`);
    default: {
      const failed = isFailedOrderCall(m);
      // A REST API order: its hook is the account's own, which no one sees; who sent it is named.
      if (key.startsWith(API_SHORT_KEY_PREFIX)) {
        const via = scalar(at(m, ['hook', 'via'])) ?? '';
        return `REST API order${via === '' ? '' : ` from ${via}`} (${provider}#${account})${failed ? ' failed' : ''}`;
      }
      return `Webhook ${key} (${provider}#${account}) ${failed ? 'call failed' : 'called'}`;
    }
  }
}

/** SPEC §9: activity page size ('More' shows when the last batch had at least this many). */
export const ACTIVITY_PAGE_SIZE = 20;
export const ACTIVITY_PAGE_MAX = 100;
/** SPEC §4, §9: search applies from 3 characters. */
export const ACTIVITY_SEARCH_MIN_LENGTH = 3;
export const ACTIVITY_SEARCH_MAX_LENGTH = 256;
export const ACTIVITY_SEARCH_TOO_SHORT = `Search needs at least ${ACTIVITY_SEARCH_MIN_LENGTH} characters`;
