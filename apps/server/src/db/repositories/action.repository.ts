// The activity log (SPEC §3 Action). Queries for the dashboard come with the actions feature.
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
