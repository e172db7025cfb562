// The activity log (SPEC §3 Action). Queries for the dashboard come with the actions feature.
import { sql } from 'drizzle-orm';
import { actions } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export interface NewAction {
  userId: number;
  code: string;
  address: string | null;
  metadata?: Record<string, unknown>;
}

export async function recordAction(db: Executor, action: NewAction): Promise<void> {
  await db.insert(actions).values({ ...action, metadata: action.metadata ?? {} });
}

/**
 * One entry per owner of these hooks but `exceptUserId` (an administrator's switch of everyone:
 * each trader whose webhooks it switched reads it in their own log), with `metadata` and the
 * count of that owner's hooks; no address (the administrator's is not theirs to see). One statement.
 */
export async function recordActionForHookOwners(
  db: Executor,
  action: { code: string; metadata: Record<string, unknown>; shortKeys: readonly string[]; exceptUserId: number },
): Promise<void> {
  if (action.shortKeys.length === 0) return;
  await db.execute(sql`insert into actions (user_id, code, address, metadata)
    select h.user_id, ${action.code}, null, ${JSON.stringify(action.metadata)}::jsonb || jsonb_build_object('hooks', count(*))
    from hooks h where h.short_key = any(${sql.param([...action.shortKeys])}::text[]) and h.user_id <> ${action.exceptUserId}
    group by h.user_id`);
}
