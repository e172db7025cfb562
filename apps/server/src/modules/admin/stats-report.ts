// `adminReferrerStatsReport` (SPEC §2 Admin 'Download stats'): the CSV text of the referral
// campaigns' figures, a header row then one row per campaign (deleted ones included, with the
// time of deletion), oldest first. Downloading it is recorded.
import { AUDIT_ACTIONS, REFERRER_STATS_COLUMNS } from '@router/shared';
import { type ReferrerStatsRow, referrerStats } from '../../db/repositories/referrer.repository.ts';
import { recordAudit } from './audit.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula is prefixed with '. */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function statsCsv(rows: readonly ReferrerStatsRow[]): string {
  const lines = [REFERRER_STATS_COLUMNS.map(csvCell).join(',')];
  for (const row of rows) {
    const cells = [
      row.name,
      row.code,
      row.signups,
      row.confirmedSignups,
      row.payingUsers,
      row.signalsSent,
      row.creditsGranted,
      row.providerName,
      row.deletedAt,
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export async function referrerStatsReport(caller: AdminCaller): Promise<string> {
  const adminId = requireAdmin(caller);
  const { db } = caller.services;
  const rows = await referrerStats(db);
  await recordAudit(db, { adminId, action: AUDIT_ACTIONS.statsDownload, details: { campaigns: rows.length } });
  return statsCsv(rows);
}
