// The administrators' audit log (issue 15): what they did and every change made while proxied,
// appended in the transaction of the change itself where there is one.
import { AUDIT_PAGE_MAX, AUDIT_PAGE_SIZE, type AuditAction } from '@router/shared';
import { type AuditRow, insertAuditEntry, listAuditEntries } from '../../db/repositories/admin-audit.repository.ts';
import type { Executor } from '../../db/repositories/executor.ts';
import { parsePage } from '../paging.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';

export interface AuditRecord {
  adminId: number;
  targetId?: number | null;
  /** For a target without an account (an unknown email). */
  targetEmail?: string | null;
  action: AuditAction;
  details?: Record<string, unknown>;
}

export function recordAudit(db: Executor, record: AuditRecord): Promise<number> {
  return insertAuditEntry(db, {
    adminId: record.adminId,
    targetId: record.targetId ?? null,
    targetEmail: record.targetEmail ?? null,
    action: record.action,
    details: record.details ?? {},
  });
}

export interface AuditEntryView {
  id: number;
  createdAt: number;
  adminEmail: string;
  targetEmail: string | null;
  action: string;
  /** JSON text. */
  details: string;
}

/** `adminAuditLog`: newest first; `createdAtFrom` = the createdAt of the last entry shown. */
export async function listAudit(
  caller: AdminCaller,
  query: { limit?: number | null; createdAtFrom?: number | null },
): Promise<AuditEntryView[]> {
  requireAdmin(caller);
  const rows = await listAuditEntries(caller.services.db, parsePage(query, AUDIT_PAGE_SIZE, AUDIT_PAGE_MAX));
  return rows.map((row: AuditRow) => ({ ...row, details: JSON.stringify(row.details) }));
}

/** Argument names whose values never reach the log (cf. logger.ts SECRET_KEYS). */
const SECRET_KEY = /pass|secret|token|credential|authorization|shortkey|verifier|recovery|^code$/i;
const MAX_TEXT = 500;

/** Keys holding a URL that may carry a secret (a notification's webhook URL: Slack's path, a `?token=`). */
const URL_KEY = /^url$/i;

/** Only a URL's origin is kept: its path, query and user info may be the receiver's secret. */
export function redactUrl(value: unknown): unknown {
  if (typeof value !== 'string') return '[redacted]';
  try {
    const url = new URL(value);
    return url.origin === 'null' ? '[redacted]' : `${url.origin}/[redacted]`;
  } catch {
    return '[redacted]';
  }
}

/** A JSON object given as text (a `metadata` argument), else undefined. */
function jsonObject(text: string): object | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A mutation's arguments as the audit log keeps them: secrets replaced, URLs cut to their origin
 * (also inside a JSON object given as text, such as a notification's `metadata`), long texts cut.
 */
export function redactArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    const object = depth <= 5 ? jsonObject(value) : undefined;
    const text = object ? JSON.stringify(redactArguments(object, depth + 1)) : value;
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > 5) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redactArguments(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_KEY.test(key) ? '[redacted]' : URL_KEY.test(key) ? redactUrl(item) : redactArguments(item, depth + 1),
    ]),
  );
}
