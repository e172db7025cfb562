// The activity log as the API shows it: own actions only, worded (SPEC §4) and source-labelled (SPEC §9).
import {
  ACTIVITY_PAGE_MAX,
  ACTIVITY_PAGE_SIZE,
  ACTIVITY_SEARCH_MAX_LENGTH,
  ACTIVITY_SEARCH_MIN_LENGTH,
  ACTIVITY_SEARCH_TOO_SHORT,
  addressLabel,
  describeAction,
} from '@router/shared';
import {
  type ActionFilter,
  type ActionRow,
  findAction,
  listActions as queryActions,
} from '../../db/repositories/action-query.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parsePage } from '../paging.ts';

export interface ActionView {
  id: number;
  code: string;
  address: string | null;
  addressLabel: string | null;
  /** JSON text (SPEC §3). */
  metadata: string;
  createdAt: number;
  description: string;
}

export interface ActionsQuery {
  code?: string | null;
  createdAtFrom?: number | null;
  search?: string | null;
  signalId?: string | null;
  limit?: number | null;
}

function toView(row: ActionRow): ActionView {
  return {
    id: row.id,
    code: row.code,
    address: row.address,
    addressLabel: addressLabel(row.address),
    metadata: JSON.stringify(row.metadata ?? {}),
    createdAt: row.createdAt,
    description: describeAction(row.code, row.metadata),
  };
}

function searchTerm(search: string | null | undefined): string | undefined {
  const term = search?.trim() ?? '';
  if (term === '') return undefined;
  if (term.length < ACTIVITY_SEARCH_MIN_LENGTH)
    throw new AppError('VALIDATION', ACTIVITY_SEARCH_TOO_SHORT, { field: 'search' });
  if (term.length > ACTIVITY_SEARCH_MAX_LENGTH) {
    throw new AppError('VALIDATION', `Search is limited to ${ACTIVITY_SEARCH_MAX_LENGTH} characters`, {
      field: 'search',
    });
  }
  return term;
}

/**
 * Newest first, `limit` (default 20, at most 100) per page. `createdAtFrom` is the createdAt of the
 * last shown action: the page holds strictly older ones. A page never ends inside a millisecond,
 * so it may hold a few more than `limit` rows when several share the last one's millisecond.
 */
export async function listActions(services: Services, userId: number, query: ActionsQuery): Promise<ActionView[]> {
  const filter: ActionFilter = { userId, ...parsePage(query, ACTIVITY_PAGE_SIZE, ACTIVITY_PAGE_MAX) };
  if (query.code) filter.code = query.code;
  if (query.signalId) filter.signalId = query.signalId;
  const search = searchTerm(query.search);
  if (search !== undefined) filter.search = search;
  const rows = await queryActions(services.db, filter);
  return rows.map(toView);
}

export async function getAction(services: Services, userId: number, id: number): Promise<ActionView> {
  const row = await findAction(services.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Action not found');
  return toView(row);
}
