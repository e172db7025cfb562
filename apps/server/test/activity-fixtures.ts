// Test data for the activity log and order statistics: actions, connectors, hooks and signals
// written straight to the database, and a GraphQL caller for authenticateAsUserId.
import type { TestApp } from './app.ts';

export interface GqlResult<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

export async function gqlAs<T>(
  t: TestApp,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GqlResult<T>> {
  const res = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as GqlResult<T>;
}

export async function insertAction(
  t: TestApp,
  a: { userId: number; code: string; metadata?: unknown; address?: string | null; createdAt: string },
): Promise<number> {
  const { rows } = await t.services.db.$client.query<{ id: string }>(
    'insert into actions (user_id, code, address, metadata, created_at) values ($1, $2, $3, $4, $5) returning id',
    [a.userId, a.code, a.address ?? null, JSON.stringify(a.metadata ?? {}), a.createdAt],
  );
  return Number(rows[0]?.id);
}

/** A connector and one hook on it; returns their ids and the hook's shortKey. */
export async function insertHook(t: TestApp, userId: number, name: string, providerName = 'paper') {
  const db = t.services.db.$client;
  const connector = await db.query<{ id: string }>(
    `insert into connectors (key, user_id, provider_name, is_active) values ($1, $2, $3, true) returning id`,
    [`c_${name}`, userId, providerName],
  );
  const connectorId = Number(connector.rows[0]?.id);
  const shortKey = `sk_${name}`;
  const hook = await db.query<{ id: string }>(
    `insert into hooks (key, short_key, user_id, connector_id, account_id, name) values ($1, $2, $3, $4, 'A1', $5)
     returning id`,
    [`h_${name}`, shortKey, userId, connectorId, name],
  );
  return { hookId: Number(hook.rows[0]?.id), connectorId, shortKey, providerName };
}

export type TestHook = Awaited<ReturnType<typeof insertHook>>;

let signalSeq = 0;

export async function insertSignal(
  t: TestApp,
  hook: TestHook & { userId: number },
  s: { createdAt: Date; isTest?: boolean; status?: string },
): Promise<void> {
  signalSeq += 1;
  await t.services.db.$client.query(
    `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, is_test, status, created_at)
     values ($1, $2, $3, $4, 'A1', $5, $6, $7, $8)`,
    [
      `sig${signalSeq}`,
      hook.userId,
      hook.hookId,
      hook.connectorId,
      hook.providerName,
      s.isTest ?? false,
      s.status ?? (s.isTest ? 'draft' : 'filled'),
      s.createdAt,
    ],
  );
}
