// The administrators' audit log (admin_audit_log): appended to, read newest first. The table
// refuses UPDATE, DELETE and TRUNCATE (migration 0014); nothing here tries.
import { AUDIT_ACTIONS } from '@router/shared';
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

export interface NewAuditEntry {
  adminId: number;
  /** The user acted on, when there is one. */
  targetId: number | null;
  /** Stored as given when the target has no account (an unknown email); else the user's email. */
  targetEmail?: string | null;
  action: string;
  details: Record<string, unknown>;
}

export interface AuditRow {
  id: number;
  /** Milliseconds since the epoch, truncated (the stored time has microseconds). */
  createdAt: number;
  adminEmail: string;
  targetEmail: string | null;
  action: string;
  details: Record<string, unknown>;
}

type Row<T> = T & Record<string, unknown>;

const COLUMNS = sql.raw(`id::float8 as id, floor(extract(epoch from created_at) * 1000)::float8 as "createdAt",
  admin_email as "adminEmail", target_email as "targetEmail", action, details`);

/** Appends one entry; the emails are copied from the users (the record outlives them). */
export async function insertAuditEntry(db: Executor, entry: NewAuditEntry): Promise<number> {
  const { rows } = await db.execute<Row<{ id: number }>>(sql`
    insert into admin_audit_log (admin_id, admin_email, target_id, target_email, action, details)
    select a.id, a.email, ${entry.targetId},
      coalesce((select email from users where id = ${entry.targetId}), ${entry.targetEmail ?? null}),
      ${entry.action}, ${JSON.stringify(entry.details)}::jsonb
    from users a where a.id = ${entry.adminId}
    returning id::float8 as id`);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`audit entry for a missing administrator ${entry.adminId}`);
  return id;
}

/**
 * The users the administrator acts as (`targetId`: that one only) in this sign-in session and has
 * not stopped acting as: their newest 'proxy on' or 'proxy off' for that user is a 'proxy on'
 * naming the session (proxy.ts startProxy). A 'proxy off' (Reset, or a switch to another user)
 * ends it in every session.
 */
export async function openProxyTargets(
  db: Executor,
  proxy: { adminId: number; sessionId: number; targetId?: number },
): Promise<number[]> {
  const target = proxy.targetId === undefined ? sql`target_id is not null` : sql`target_id = ${proxy.targetId}`;
  const { rows } = await db.execute<Row<{ targetId: number }>>(sql`
    select target_id::float8 as "targetId" from (
      select distinct on (target_id) target_id, action, details->>'session' as session
      from admin_audit_log
      where admin_id = ${proxy.adminId} and ${target}
        and action in (${AUDIT_ACTIONS.proxyOn}, ${AUDIT_ACTIONS.proxyOff})
      order by target_id, id desc
    ) latest
    where action = ${AUDIT_ACTIONS.proxyOn} and session = ${String(proxy.sessionId)}`);
  return rows.map((row) => row.targetId);
}

/** Whether the administrator acts as the user (without `targetId`, as anyone) in this session. */
export async function isProxyOpen(
  db: Executor,
  proxy: { adminId: number; sessionId: number; targetId?: number },
): Promise<boolean> {
  return (await openProxyTargets(db, proxy)).length > 0;
}

/** Safety bound on a page grown by millisecond ties. */
const MAX_PAGE = 1000;

/**
 * Newest first, paged like the activity log (action-query.repository.ts): the first `limit`
 * entries older than `before` (ms) plus every further one of the last one's millisecond, so
 * paging by the last createdAt neither skips nor repeats entries.
 */
export async function listAuditEntries(db: Executor, page: { limit: number; before?: number }): Promise<AuditRow[]> {
  const before = page.before === undefined ? sql`true` : sql`created_at < to_timestamp(${page.before}::float8 / 1000)`;
  const { rows } = await db.execute<Row<AuditRow>>(sql`
    select ${COLUMNS} from admin_audit_log
    where ${before} and created_at >= (
      select date_trunc('milliseconds', min(p.created_at)) from (
        select created_at from admin_audit_log where ${before}
        order by created_at desc nulls last, id desc nulls last limit ${page.limit}
      ) p
    )
    order by created_at desc nulls last, id desc nulls last
    limit ${MAX_PAGE}`);
  return rows;
}

/**
 * The newest administrator's decision on the user's professional status ('professional_grant' or
 * 'professional_remove'), with its time; null when none was ever made.
 */
export async function adminProfessionalDecision(
  db: Executor,
  userId: number,
): Promise<{ granted: boolean; at: Date } | null> {
  const { rows } = await db.execute<Row<{ action: string; at: number }>>(sql`
    select action, (extract(epoch from created_at) * 1000)::float8 as at from admin_audit_log
    where target_id = ${userId}
      and action in (${AUDIT_ACTIONS.professionalGrant}, ${AUDIT_ACTIONS.professionalRemove})
    order by id desc limit 1`);
  const row = rows[0];
  return row ? { granted: row.action === AUDIT_ACTIONS.professionalGrant, at: new Date(row.at) } : null;
}

/**
 * Whether an administrator's grant holds the user's professional status: their newest
 * 'professional_grant' or 'professional_remove' is a grant. Such a grant is a source of the status
 * of its own; only an administrator's removal ends it (never a plan ending or a refund).
 */
export async function adminGrantsProfessional(db: Executor, userId: number): Promise<boolean> {
  return (await adminProfessionalDecision(db, userId))?.granted === true;
}
