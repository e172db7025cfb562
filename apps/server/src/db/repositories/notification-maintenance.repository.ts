// Periodic notification work: connectors about to expire, notices of disabled settings, and
// the retention of delivered events.
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';

/** Arbitrary constant: one instance at a time runs the expiry pass (pg_try_advisory_xact_lock). */
const EXPIRY_LOCK = 1_717_000_017;

/**
 * Emits `connector.expiring` for active connectors expiring within their warning days (the
 * provider's entry of `daysByProvider`, else `defaultDays`), once per expiry: not again while an
 * event for the same connector and `expiresAt` exists. Connectors whose user has no setting
 * for it write nothing and are looked at again next pass (a setting added later still hears of
 * it). Returns the deliveries queued; 0 when another instance holds the pass.
 */
export async function emitExpiringConnectors(
  db: Executor,
  daysByProvider: Readonly<Record<string, number>>,
  defaultDays: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows: lock } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${EXPIRY_LOCK}) as locked`,
    );
    if (!lock[0]?.locked) return 0;
    const { rows } = await tx.execute<{ deliveries: number }>(sql`
      with source as (
        select c.user_id, c.id as connector_id, null::text as account_id, 'connector.expiring' as type,
          jsonb_build_object(
            'connectorKey', c.key, 'providerName', c.provider_name,
            'accountIds', coalesce((select jsonb_agg(a->'id') from jsonb_array_elements(c.accounts) a), '[]'::jsonb),
            'expiresAt', floor(extract(epoch from c.expires_at) * 1000)::bigint
          ) as data
        from connectors c
        where c.is_active and c.oauth_state is null and c.expires_at > now()
          and c.expires_at <= now()
            + coalesce((${JSON.stringify(daysByProvider)}::jsonb ->> c.provider_name)::int, ${defaultDays}) * interval '1 day'
          and not exists (
            select 1 from notification_events e
            where e.connector_id = c.id and e.type = 'connector.expiring'
              and (e.data->>'expiresAt')::bigint = floor(extract(epoch from c.expires_at) * 1000)::bigint
          )
      ), ${sql.raw(notificationEventCtes('source'))}
      select (select count(*) from notify_deliveries)::int as deliveries`);
    return rows[0]?.deliveries ?? 0;
  });
}

/** Why an expiry notice still waiting to go out (a retry) never does. */
export const STALE_EXPIRY_NOTICE = 'Not sent: the connection no longer expires then (reconnected or renewed)';
/** Why a deactivation notice still waiting to go out never does. */
export const STALE_DEACTIVATION_NOTICE = 'Not sent: the connection was reconnected since';

/**
 * Gives up the pending connector notices that are no longer true: `connector.expiring` of an
 * expiry that is no longer the connector's (a reconnect, or a renewal that moved it), and, when
 * `reconnected`, `connector.deactivated`. A retry hours later would warn of an expiry that will
 * not come, or tell a receiver (that may pause a strategy on it) that the webhooks place no
 * orders when they do again. A delivery being sent right now (locked by a worker) is passed by:
 * it goes out anyway. Run in the transaction that wrote the new expiry or the reconnect.
 */
export async function dropStaleConnectorNotices(db: Executor, connectorId: number, reconnected: boolean) {
  const { rows } = await db.execute<{ n: number }>(sql`
    with stale as (
      select d.id, e.type from notification_events e
      join connectors c on c.id = e.connector_id
      join notification_deliveries d on d.event_id = e.id
      where e.connector_id = ${connectorId} and d.status = 'pending'
        and e.type in ('connector.expiring', 'connector.deactivated')
        and case when e.type = 'connector.deactivated' then ${reconnected}
          else c.expires_at is null
            or (e.data->>'expiresAt')::bigint <> floor(extract(epoch from c.expires_at) * 1000)::bigint end
      for update of d skip locked
    ), dropped as (
      update notification_deliveries d set status = 'failed', next_attempt_at = null,
        error = case when stale.type = 'connector.expiring' then ${STALE_EXPIRY_NOTICE}
          else ${STALE_DEACTIVATION_NOTICE} end
      from stale where d.id = stale.id
      returning 1
    )
    select count(*)::int as n from dropped`);
  return rows[0]?.n ?? 0;
}

export interface DisabledSetting {
  id: number;
  type: number;
  metadata: { email?: string; url?: string };
  reason: string;
  accountId: string;
  providerName: string;
  email: string;
}

/**
 * Tells the user of each setting disabled since the last pass: `send` runs with the row locked
 * (another instance skips it) and the notice is marked sent when it returns. A throw leaves that
 * notice for the next pass (`failed` hears of it) and this pass goes on with the others: one
 * mailbox refusing mail must not keep every other user from hearing of theirs.
 */
export async function sendDisabledNotices(
  db: Executor,
  send: (setting: DisabledSetting) => Promise<void>,
  failed: (setting: DisabledSetting, error: unknown) => void = () => {},
): Promise<number> {
  let sent = 0;
  /** Settings this pass has taken (a notice that failed is not taken again until the next pass). */
  const taken: number[] = [];
  for (;;) {
    let setting: DisabledSetting | undefined;
    try {
      await db.transaction(async (tx) => {
        const { rows } = await tx.execute<DisabledSetting & Record<string, unknown>>(sql`
          select n.id::int as id, n.type, n.metadata, coalesce(n.disabled_reason, '') as reason,
            n.account_id as "accountId", c.provider_name as "providerName", u.email
          from notifications n
          join connectors c on c.id = n.connector_id
          join users u on u.id = n.user_id
          where n.disabled_at is not null and n.disabled_notice_at is null
            and n.id <> all(${`{${taken.join(',')}}`}::bigint[])
          limit 1
          for update of n skip locked`);
        setting = rows[0];
        if (!setting) return;
        taken.push(setting.id);
        await send(setting);
        await tx.execute(sql`update notifications set disabled_notice_at = now() where id = ${setting.id}`);
      });
    } catch (error) {
      if (!setting) throw error;
      failed(setting, error);
      continue;
    }
    if (!setting) return sent;
    sent++;
  }
}

/** Deletes events older than `days` with nothing left to send (their deliveries go with them). */
export async function deleteOldEvents(db: Executor, days: number, limit: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    with old as (
      select e.id from notification_events e
      where e.created_at < now() - ${days} * interval '1 day'
        and not exists (select 1 from notification_deliveries d where d.event_id = e.id and d.status = 'pending')
      limit ${limit}
    ), gone as (delete from notification_events e using old where e.id = old.id returning 1)
    select count(*)::int as n from gone`);
  return rows[0]?.n ?? 0;
}
