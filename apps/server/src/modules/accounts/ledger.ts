// `accountLedger` (issue 14 point 8): the caller's credit ledger, newest first, paged like
// `actions` (createdAtFrom = the createdAt of the last entry shown).
import { LEDGER_PAGE_MAX, LEDGER_PAGE_SIZE } from '@router/shared';
import { listLedger } from '../../db/repositories/credits.repository.ts';
import type { Services } from '../../services.ts';
import { parsePage } from '../paging.ts';

export interface LedgerEntryView {
  id: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** Signed: a grant or refund adds, a signal or lapse takes. */
  credits: number;
  cause: string;
  balanceAfter: number;
  /** What the cause does not say: a refund of 0 is one whose credits lapsed with their period. */
  note: string | null;
  /** A reversal or restore of a dispute by the card's bank (not of a refund). */
  dispute: boolean;
}

/** billing/events/reversal.ts writes '<session or invoice id>:<refund or dispute id>'; Stripe's dispute ids are du_ (dp_ before). */
const DISPUTE_REFERENCE = /:(du|dp)_[A-Za-z0-9]+$/;
const isDisputeEntry = (cause: string, reference: string | null) =>
  (cause === 'reversal' || cause === 'restore') && reference !== null && DISPUTE_REFERENCE.test(reference);

export async function listLedgerEntries(
  services: Services,
  userId: number,
  query: { limit?: number | null; createdAtFrom?: number | null },
): Promise<LedgerEntryView[]> {
  const page = parsePage(query, LEDGER_PAGE_SIZE, LEDGER_PAGE_MAX);
  const rows = await listLedger(services.db, { userId, ...page });
  return rows.map(({ id, createdAt, credits, cause, reference, balanceAfter, note }) => ({
    id,
    createdAt,
    credits,
    cause,
    balanceAfter,
    note: note ?? null,
    dispute: isDisputeEntry(cause, reference),
  }));
}
