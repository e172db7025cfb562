// connectorActivate: credentials as an ordered list matching the provider's credential names, or
// for OAuth providers [code, state] from /callback/{provider}. The broker connects; secrets are
// sealed under the connector's key; a reconnect (an account already connected) reuses that
// connector, so its hooks keep working.
import type { Broker, BrokerAccount, BrokerSession } from '@router/brokers';
import { brokerCredentialSchema } from '@router/shared';
import { newKey } from '../../crypto/random.ts';
import { openSecrets, sealSecrets } from '../../crypto/secrets.ts';
import { recordAction } from '../../db/repositories/action.repository.ts';
import {
  type ConnectorRow,
  deleteConnectorRow,
  insertConnector,
  listPendingConnectors,
  listProviderConnectors,
  lockConnector,
  lockProviderActivation,
  updateConnector,
} from '../../db/repositories/connectors.repository.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import {
  listHookShortKeys,
  listHooks,
  moveAccountHooks,
  notifyHookChanged,
} from '../../db/repositories/hooks.repository.ts';
import { dropStaleConnectorNotices } from '../../db/repositories/notification-maintenance.repository.ts';
import { listMovableNotifications, moveNotification } from '../../db/repositories/notifications.repository.ts';
import { moveAccountSignals } from '../../db/repositories/signal-reconcile.repository.ts';
import type { StoredBrokerAccount } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { hooksChangedHere } from '../hooks/hook-cache.ts';
import { resealWebhookSecret } from '../notifications/secret.ts';
import { OAUTH_STATE_TTL_MS } from './create.ts';
import { brokerContextFor, connectFailure, providerBroker } from './provider.ts';
import { forgetSession } from './session-cache.ts';
import { type Actor, type ConnectorView, connectorActionMetadata, toConnectorView } from './types.ts';

export const OAUTH_STATE_MESSAGE = 'The authorization has expired or does not match. Please connect again.';

function credential(value: string | undefined, field: string): string {
  const parsed = brokerCredentialSchema.safeParse(value ?? '');
  if (!parsed.success) throw new AppError('VALIDATION', parsed.error.issues[0]?.message ?? 'Required', { field });
  return parsed.data;
}

/** Credential values by name, and for OAuth the pending connector the state points at. */
async function readCredentials(services: Services, actor: Actor, broker: Broker, credentials: readonly string[]) {
  const { authentication, name, title } = broker.descriptor;
  if (authentication.type === 'open') {
    const parameter = authentication.credentials?.[0] ?? 'code';
    const code = credential(credentials[0], parameter);
    const state = credentials[1]?.trim();
    const since = new Date(Date.now() - OAUTH_STATE_TTL_MS);
    const recent = await listPendingConnectors(services.db, actor.userId, name, since);
    // Where the broker's sign-in cannot carry our state (OAuth 1.0a's verifier, bound to that
    // attempt's request token), the callback names its attempt by the request token it echoes
    // (oauth_token), else the user's latest attempt is meant. Elsewhere a code without our state
    // could be anyone's: an attacker's code would connect their account.
    const withoutState = broker.descriptor.callbackWithoutState;
    const pending = state
      ? recent.find(
          (row) => row.oauthState === state || (withoutState && handedOut(services, row)?.requestToken === state),
        )
      : withoutState
        ? recent[0]
        : undefined;
    if (!pending) throw new AppError('VALIDATION', OAUTH_STATE_MESSAGE, { field: 'state' });
    return { values: { code, [parameter]: code }, pending, handedOut: handedOut(services, pending) };
  }
  const names = authentication.credentials;
  if (credentials.length !== names.length) {
    const expected = names.length ? `: ${names.join(', ')}` : '';
    throw new AppError('VALIDATION', `${title} expects ${names.length} credentials${expected}`, {
      field: 'credentials',
    });
  }
  const values: Record<string, string> = {};
  names.forEach((field, i) => {
    values[field] = credential(credentials[i], field);
  });
  return { values, pending: undefined, handedOut: undefined };
}

/** What the broker handed out when the authorization began (startAuthorization's `pending`). */
function handedOut(services: Services, pending: ConnectorRow): Record<string, string> | undefined {
  if (!pending.secrets || !pending.secretsKeyId) return undefined;
  return openSecrets(services.secretsKey, pending.key, { data: pending.secrets, keyId: pending.secretsKeyId });
}

/** The broker's accounts, keeping names the user gave to accounts already known. */
function mergeAccounts(known: readonly StoredBrokerAccount[], fresh: readonly BrokerAccount[]): StoredBrokerAccount[] {
  return fresh.map((account) => ({ ...account, name: known.find((k) => k.id === account.id)?.name ?? account.name }));
}

/**
 * One account belongs to one connection: accounts a reconnect brought to `to` leave `from` (whose
 * credentials no longer serve them), with their hooks, fan-out legs, notification settings and
 * signals, so the hooks' URLs keep working under the new credentials, and orders still resting
 * or unfinished are followed there and told to the settings that moved. A setting `to` already has stays put.
 * A `from` left with no account and no webhook of the user's is gone: nothing of it is of use,
 * and listed it would only be an empty connection the user has to delete. Returns then the short
 * keys told hook_changed (null while `from` stays).
 */
async function handOver(
  services: Services,
  tx: Transaction,
  userId: number,
  from: ConnectorRow,
  to: ConnectorRow,
  ids: ReadonlySet<string>,
): Promise<readonly string[] | null> {
  const moving = from.accounts.filter((account) => ids.has(account.id)).map((account) => account.id);
  const left = from.accounts.filter((account) => !ids.has(account.id));
  await updateConnector(tx, from.id, {
    accounts: left,
    ...(left.length > 0 ? { isDemo: left.every((account) => account.demo) } : {}),
  });
  await moveAccountHooks(tx, userId, from, to, moving);
  await moveAccountSignals(tx, userId, from.id, to.id, moving);
  for (const setting of await listMovableNotifications(tx, from.id, to.id, moving)) {
    const identity = { accountId: setting.accountId, type: setting.type };
    const secret =
      setting.secret && setting.secretKeyId
        ? resealWebhookSecret(
            services.secretsKey,
            { connectorId: from.id, ...identity },
            { connectorId: to.id, ...identity },
            { data: setting.secret, keyId: setting.secretKeyId },
          )
        : null;
    await moveNotification(tx, setting.id, to.id, secret);
  }
  if (left.length > 0 || (await listHooks(tx, userId, from.id)).length > 0) return null;
  // What stays (a REST API hook `to` has its own of, a setting `to` already has) goes with it.
  const changed = await notifyHookChanged(tx, await listHookShortKeys(tx, from.id));
  await deleteConnectorRow(tx, from.id);
  return changed;
}

const toDate = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));

export async function activateConnector(
  services: Services,
  actor: Actor,
  providerName: string,
  credentials: readonly string[],
): Promise<ConnectorView> {
  const broker = await providerBroker(services, providerName);
  const { values, pending, handedOut } = await readCredentials(services, actor, broker, credentials);
  let session: BrokerSession;
  try {
    session = await broker.connect(brokerContextFor(services, broker), {
      credentials: values,
      ...(handedOut ? { pending: handedOut } : {}),
    });
  } catch (error) {
    throw connectFailure(services, broker, error);
  }
  if (session.accounts.length === 0) {
    throw new AppError('EXECUTION', `${broker.descriptor.title}: no accounts found for these credentials`);
  }
  const ids = new Set(session.accounts.map((account) => account.id));
  const emptied: number[] = [];
  const changed: string[] = [];
  const row = await services.db.transaction(async (tx): Promise<ConnectorRow> => {
    // Looked up under the lock: a connect of the same accounts at once then finds this one.
    await lockProviderActivation(tx, actor.userId, providerName);
    // The state is single-use: the same callback submitted twice at once read the pending row
    // before either activation; the later one finds it consumed (it may be the connection now).
    if (pending && (await lockConnector(tx, pending.id))?.oauthState !== pending.oauthState)
      throw new AppError('VALIDATION', OAUTH_STATE_MESSAGE, { field: 'state' });
    // Every connection holding one of the accounts, each read again under its row lock (a rename
    // meanwhile is kept). The first is reconnected; the others hand those accounts over to it.
    const holding: ConnectorRow[] = [];
    for (const row of await listProviderConnectors(tx, actor.userId, providerName)) {
      if (!row.accounts.some((account) => ids.has(account.id))) continue;
      const locked = await lockConnector(tx, row.id);
      if (locked) holding.push(locked);
    }
    const [existing, ...others] = holding;
    const target = existing ?? pending;
    const key = target?.key ?? newKey();
    const sealed = sealSecrets(services.secretsKey, key, session.secrets);
    const accounts = mergeAccounts(
      holding.flatMap((row) => row.accounts),
      session.accounts,
    );
    const changes = {
      isActive: true,
      isDemo: accounts.every((account) => account.demo),
      accounts,
      secrets: sealed.data,
      secretsKeyId: sealed.keyId,
      oauthState: null,
      expiresAt: toDate(session.expiresAt),
      refreshAt: toDate(session.refreshAt),
      branch: session.branch ?? null,
      deactivatedReason: null,
      refreshSentAt: null,
    };
    const saved = target
      ? await updateConnector(tx, target.id, changes)
      : await insertConnector(tx, { key, userId: actor.userId, providerName, ...changes });
    if (!saved) throw new AppError('VALIDATION', OAUTH_STATE_MESSAGE, { field: 'state' });
    // Notices still due (retries) of the old grant's expiry or of its deactivation are no longer true.
    if (existing) await dropStaleConnectorNotices(tx, saved.id, true);
    if (pending && existing) await deleteConnectorRow(tx, pending.id);
    for (const other of others) {
      const gone = await handOver(services, tx, actor.userId, other, saved, ids);
      if (gone) {
        emptied.push(other.id);
        changed.push(...gone);
      }
    }
    // One activity line per connection: SPEC words ConnectorCreate and ConnectorActivate alike
    // ('… connected'), and the dashboard's tour looks for ConnectorActivate.
    const metadata = connectorActionMetadata(saved);
    await recordAction(tx, { userId: actor.userId, code: 'ConnectorActivate', address: actor.address, metadata });
    // A reconnect makes the connector's hooks usable again.
    if (existing) changed.push(...(await notifyHookChanged(tx, await listHookShortKeys(tx, saved.id))));
    return saved;
  });
  hooksChangedHere(services, changed);
  for (const id of emptied) forgetSession(services, id);
  return toConnectorView(row);
}
