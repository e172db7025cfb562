// The hook's SQL: named (prepared once per connection) statements on the pool, one round trip
// each. The store statement claims the idempotency key, takes the credit and inserts the signal
// at once; the signals_live_credit_check constraint aborts it when no credit could be taken.
import type pg from 'pg';

/** The pool or one client of it (reconciliation runs inside a transaction). */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export interface NewSignal {
  id: string;
  hookId: number;
  key: string;
  windowSeconds: number;
  userId: number;
  isTest: boolean;
  connectorId: number;
  accountId: string;
  providerName: string;
  /** JSON text of the body as received. */
  request: string;
  /** JSON text of the normalized order. */
  order: string;
  /** JSON text of the answer, known up front for test hooks. */
  response: string | null;
  address: string | null;
}

/** Signal id that owns the key: `signal.id` when this call stored it, another when it repeats one. */
export async function storeSignal(db: Queryable, s: NewSignal): Promise<string> {
  const { rows } = await db.query<{ owner: string }>({
    name: 'signal_store',
    text: `with claimed as (
        insert into signal_keys as k (hook_id, key, signal_id, expires_at)
        values ($1, $2, $3, now() + $4 * interval '1 second')
        on conflict (hook_id, key) do update set
          signal_id = case when k.expires_at < now() then excluded.signal_id else k.signal_id end,
          expires_at = case when k.expires_at < now() then excluded.expires_at else k.expires_at end
        returning k.signal_id
      ), credit as (
        update accounts set balance = balance - 1, updated_at = now()
        where user_id = $5 and not $6 and balance > 0 and exists (select 1 from claimed where signal_id = $3)
        returning balance
      ), stored as (
        insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, is_test, status,
          request, "order", response, credit_held, address, completed_at)
        select $3, $5, $1, $7, $8, $9, $6, case when $6 then 'draft' else 'placing' end,
          $10, $11, $12, exists (select 1 from credit), $13, case when $6 then now() end
        from claimed where signal_id = $3
        returning id
      )
      select (select signal_id from claimed) as owner, (select count(*) from stored) as stored`,
    values: [
      s.hookId,
      s.key,
      s.id,
      s.windowSeconds,
      s.userId,
      s.isTest,
      s.connectorId,
      s.accountId,
      s.providerName,
      s.request,
      s.order,
      s.response,
      s.address,
    ],
  });
  const owner = rows[0]?.owner;
  if (!owner) throw new Error('signal store statement returned no owner');
  return owner;
}

/** The check constraint that refuses a live signal without a credit. */
export function isNoCreditError(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23514' && e.constraint === 'signals_live_credit_check';
}

/** Data the body carried that PostgreSQL cannot store (\u0000, unpaired surrogates, absurd depth). */
export function isUnstorableInput(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return (code.startsWith('22') && code !== '22012') || code === '54001';
}

export interface SignalOutcome {
  id: string;
  status: string;
  brokerOrderId: string | null;
  price: number | null;
  /** JSON text of the answer given; kept when one was already stored (the first answer stands). */
  response: string | null;
  elapsedMs: number | null;
  /** Give the held credit back (refusal, certain failure). */
  releaseCredit: boolean;
}

/** Records the broker's outcome; releases the credit in the same statement when asked. */
export async function recordSignalOutcome(db: Queryable, o: SignalOutcome): Promise<void> {
  await db.query({
    name: 'signal_outcome',
    text: `with updated as (
        update signals set status = $2, broker_order_id = coalesce($3, broker_order_id), price = coalesce($4, price),
          response = coalesce(response, $5), elapsed_ms = coalesce(elapsed_ms, $6),
          completed_at = case when $2 in ('placing', 'unknown') then null else now() end,
          credit_held = credit_held and not $7
        where id = $1
        returning user_id, credit_held
      ), released as (
        select s.user_id from signals s join updated u on u.user_id = s.user_id
        where s.id = $1 and s.credit_held and not u.credit_held
      )
      update accounts set balance = balance + 1, updated_at = now()
      where user_id = (select user_id from released)`,
    values: [o.id, o.status, o.brokerOrderId, o.price, o.response, o.elapsedMs, o.releaseCredit],
  });
}

/** The answer given at the deadline, while the broker call goes on. */
export async function recordSignalAnswer(db: Queryable, id: string, response: string, elapsedMs: number) {
  await db.query({
    name: 'signal_answer',
    text: 'update signals set response = coalesce(response, $2), elapsed_ms = coalesce(elapsed_ms, $3) where id = $1',
    values: [id, response, elapsedMs],
  });
}

export interface SignalState {
  status: string;
  response: unknown;
  broker_order_id: string | null;
  price: number | null;
  provider_name: string;
}

export async function findSignalState(db: Queryable, id: string): Promise<SignalState | undefined> {
  const { rows } = await db.query<SignalState>({
    name: 'signal_state',
    text: 'select status, response, broker_order_id, price, provider_name from signals where id = $1',
    values: [id],
  });
  return rows[0];
}
