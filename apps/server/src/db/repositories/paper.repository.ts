// The paper broker's accounts, orders and symbol states: reads for a store transaction, one read
// up front for a batch, and the writes of a batch in one statement. Callers hold the
// account's transaction-level advisory lock (the account row may not exist yet when `connect`
// creates it, so a row lock would not do). Every statement is named (prepared once per
// connection): the write statement with its notification CTEs cost PostgreSQL ~0.9 ms to plan,
// more than running it, when planned on every batch (pg_stat_statements, live hook at 500/s).
import {
  type Known,
  type PaperAccount,
  type PaperChanges,
  type PaperOrder,
  type PaperSource,
  type PaperSymbolState,
  paperDescriptor,
  type Reach,
  reachLevels,
} from '@router/brokers';
import type pg from 'pg';
import type { Database } from '../client.ts';
import { activityChangedSql } from './live.repository.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';
import { signalEventSource } from './signal-events.sql.ts';

/** The paper broker's title as an SQL literal: order.rejected's message is prefixed with it. */
const PAPER_TITLE_SQL = `'${paperDescriptor.title.replaceAll("'", "''")}'`;

/** Namespace of the advisory locks (first key of the two-key form): 'PAPR'. */
const LOCK_CLASS = 0x50415052;

/** A connection inside the account's transaction. */
export type PaperTransaction = pg.PoolClient;

/** Runs `fn` in a database transaction holding the account's advisory lock. */
export async function paperTransaction<T>(
  db: Database,
  accountId: string,
  fn: (tx: PaperTransaction) => Promise<T>,
): Promise<T> {
  const client = await db.$client.connect();
  let broken = false;
  try {
    await client.query('begin');
    try {
      await client.query({
        name: 'paper_lock',
        text: 'select pg_advisory_xact_lock($1, hashtext($2))',
        values: [LOCK_CLASS, accountId],
      });
      const result = await fn(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    }
  } finally {
    // A connection that cannot even roll back is discarded, not returned to the pool.
    client.release(broken);
  }
}

type DataRow = { data: unknown };

const ORDER_COLUMNS = 'select data from paper_orders where account_id = $1';
const OPEN = `${ORDER_COLUMNS} and status = 'open'`;
/** Each branch walks its partial index from the market outwards; an order sits in one branch. */
const REACHED = `${OPEN} and symbol = $2 and reach_low >= $3
  union all ${OPEN} and symbol = $2 and reach_high <= $4`;
const BY_ID = `${ORDER_COLUMNS} and id = $2`;
const BY_CLIENT_ID = `${ORDER_COLUMNS} and client_order_id = $2`;
const OPEN_ALL = `${OPEN} order by created_at, id`;
const OPEN_SYMBOL = `${OPEN} and symbol = $2 order by created_at, id`;
const REACHED_EXPIRING = `${REACHED} union all ${OPEN} and symbol = $2 and expires_at <= $5`;
const FILLS = `${ORDER_COLUMNS} and status = 'filled' and filled_at >= $2 order by filled_at desc, created_at desc limit $3`;

/** The account's state as the database holds it, keeping the first error a read threw. */
export interface DatabaseSource extends PaperSource {
  /** The first read that failed (it aborted the database transaction), if any. */
  failure(): { error: unknown } | undefined;
}

export function paperSource(tx: PaperTransaction, accountId: string): DatabaseSource {
  return new TransactionSource(tx, accountId);
}

// A class, not a closure per method: one is made per paper batch, i.e. per signal at a paced rate.
class TransactionSource implements DatabaseSource {
  readonly #tx: PaperTransaction;
  readonly #accountId: string;
  #failure: { error: unknown } | undefined;

  constructor(tx: PaperTransaction, accountId: string) {
    this.#tx = tx;
    this.#accountId = accountId;
  }

  failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  async #rows(name: string, text: string, values: unknown[]): Promise<unknown[]> {
    try {
      const { rows } = await this.#tx.query<DataRow>({ name, text, values: [this.#accountId, ...values] });
      return rows.map((row) => row.data);
    } catch (error) {
      this.#failure ??= { error };
      throw error;
    }
  }

  async #orders(name: string, text: string, values: unknown[]): Promise<PaperOrder[]> {
    return (await this.#rows(name, text, values)) as PaperOrder[];
  }

  async getAccount(): Promise<PaperAccount | null> {
    const [data] = await this.#rows('paper_account', 'select data from paper_accounts where id = $1', []);
    return (data as PaperAccount | undefined) ?? null;
  }

  async getOrder(orderId: string): Promise<PaperOrder | null> {
    return (await this.#orders('paper_order', BY_ID, [orderId]))[0] ?? null;
  }

  async findOrderByClientId(clientOrderId: string): Promise<PaperOrder | null> {
    return (await this.#orders('paper_order_client', BY_CLIENT_ID, [clientOrderId]))[0] ?? null;
  }

  listOpenOrders(symbol?: string): Promise<PaperOrder[]> {
    return symbol === undefined
      ? this.#orders('paper_open', OPEN_ALL, [])
      : this.#orders('paper_open_symbol', OPEN_SYMBOL, [symbol]);
  }

  listReachedOrders(symbol: string, reach: Reach): Promise<PaperOrder[]> {
    return reach.expiringBy === undefined
      ? this.#orders('paper_reached', REACHED, [symbol, reach.low, reach.high])
      : this.#orders('paper_reached_expiring', REACHED_EXPIRING, [symbol, reach.low, reach.high, reach.expiringBy]);
  }

  listFills(since: number, limit: number): Promise<PaperOrder[]> {
    return this.#orders('paper_fills', FILLS, [since, limit]);
  }

  async getSymbol(symbol: string): Promise<PaperSymbolState | null> {
    const [data] = await this.#rows(
      'paper_symbol',
      'select data from paper_symbols where account_id = $1 and symbol = $2',
      [symbol],
    );
    return (data as PaperSymbolState | undefined) ?? null;
  }

  async listActiveSymbols(): Promise<PaperSymbolState[]> {
    return (await this.#rows(
      'paper_symbols_active',
      'select data from paper_symbols where account_id = $1 and open > 0',
      [],
    )) as PaperSymbolState[];
  }
}

/**
 * What a batch will need, in one query: the account, the orders of these client order ids, these
 * symbols' states. `= any($2)` walks the partial index on client order ids like a list would.
 */
export async function readAhead(
  tx: PaperTransaction,
  accountId: string,
  clientOrderIds: readonly string[],
  symbols: readonly string[],
): Promise<Known> {
  const { rows } = await tx.query<{ kind: string; data: unknown }>({
    name: 'paper_read_ahead',
    text: `select 'a' as kind, data from paper_accounts where id = $1
      union all
      select 'o', data from paper_orders where account_id = $1 and client_order_id = any($2::text[])
      union all
      select 's', data from paper_symbols where account_id = $1 and symbol = any($3::text[])`,
    values: [accountId, clientOrderIds, symbols],
  });
  // One pass (not a filter and a map per kind): this runs once per paper batch.
  let account: PaperAccount | null = null;
  const orders: PaperOrder[] = [];
  const states: PaperSymbolState[] = [];
  for (const { kind, data } of rows) {
    if (kind === 'o') orders.push(data as PaperOrder);
    else if (kind === 's') states.push(data as PaperSymbolState);
    else if (kind === 'a' && account === null) account = data as PaperAccount;
  }
  return { account, clientOrderIds, orders, symbols, states };
}

/**
 * Writes a batch's changes in one statement (one round trip): the account ($2, null when
 * unchanged), the orders ($3) and the symbol states ($4), JSON arrays (empty when none) — one
 * text whatever changed, so it is prepared once. The orders' foreign key to the account is checked
 * at the statement's end, after the account's insert. A resting order of a signal that fills here
 * emits order.filled in the orders' CTEs, one rejected when it triggers (it can no longer trade)
 * order.rejected with the paper broker's message (an order filled or rejected when placed is told
 * by the signal's outcome instead). A client order id used twice fails on paper_orders_client_idx.
 * Returns the resting orders it ended (filled, rejected, canceled), for their signals (ENDED below).
 */
const SAVE = `with account_saved as (
    insert into paper_accounts (id, data) select $1, $2::jsonb where $2::jsonb is not null
    on conflict (id) do update set data = excluded.data, updated_at = now()
    returning 1
  ), order_rows as (
    select r, n from jsonb_array_elements($3::jsonb) with ordinality as x(r, n)
  ), previous as (
    select id, status from paper_orders where account_id = $1
      and id in (select r->'o'->>'id' from order_rows)
  ), saved as (
    insert into paper_orders (account_id, id, client_order_id, status, created_at, symbol, reach_low, reach_high,
      expires_at, filled_at, data)
    select $1, o->>'id', o->>'clientOrderId', o->>'status', (o->>'createdAt')::bigint, o->>'symbol',
      (r->>'lo')::float8, (r->>'hi')::float8, (o->>'expiresAt')::bigint, (o->>'filledAt')::bigint, o
    from order_rows, lateral (select r->'o' as o) as y
    order by n
    on conflict (account_id, id) do update set
      client_order_id = excluded.client_order_id, status = excluded.status, created_at = excluded.created_at,
      symbol = excluded.symbol, reach_low = excluded.reach_low, reach_high = excluded.reach_high,
      expires_at = excluded.expires_at, filled_at = excluded.filled_at, data = excluded.data
    returning id, client_order_id, status, data
  ), ended_now as materialized (
    select o.id, o.client_order_id, o.status, o.data from saved o join previous p on p.id = o.id and p.status = 'open'
    where o.status in ('filled', 'rejected', 'canceled')
  ), fills as materialized (
    -- Materialized, so the signals are found from the filled orders (signals_pkey): inlined, the
    -- event source's settings check led the generic plan to walk every signal of the account's
    -- user (signals_user_stats_idx) on each write (fill-events.test.ts).
    select s.id, s.user_id, s.hook_id, s.connector_id, s.account_id, s.provider_name, s.is_test, o.status, s."order",
      o.id as broker_order_id, (o.data->>'fillPrice')::float8 as price,
      case when o.status = 'filled' then array['order.filled'] else array['order.rejected'] end as types,
      case when o.status = 'rejected'
        then ${PAPER_TITLE_SQL} || ': ' || coalesce(nullif(o.data->>'statusDescription', ''), 'order rejected') end as message
    from ended_now o join signals s on s.id = o.client_order_id and s.account_id = $1
    -- Canceled after placed (a day order expired, a cancel) tells nothing.
    where o.status in ('filled', 'rejected')
  ), fill_events as (${signalEventSource('fills')}),
  ${notificationEventCtes('fill_events')}, symbols_saved as (
    insert into paper_symbols (account_id, symbol, open, data)
    select $1, s->>'symbol', (s->>'open')::int, s
    from jsonb_array_elements($4::jsonb) as s
    on conflict (account_id, symbol) do update set open = excluded.open, data = excluded.data
    returning 1
  )
  select client_order_id, status, id, (data->>'fillPrice')::float8 as price from ended_now`;

/**
 * The signals of resting orders the write just ended (filled, rejected when they triggered, or
 * canceled: a day order expired, a cancel, a reset):
 * from 'accepted' (answered resting) to the order's status, by signals_pkey, so the API and the
 * activity read it as the fill follower's write makes them read a live broker's. Kept out of the
 * write's statement (whose generic plan once walked the user's whole signal history); the events
 * were emitted there, so this emits none, and tells the owners' screens (live updates).
 */
const ENDED = `with ended as (
    select * from unnest($2::text[], $3::text[], $4::text[], $5::float8[]) as e(id, status, broker_order_id, price)
  ), moved as (
    update signals s set status = e.status, broker_order_id = coalesce(s.broker_order_id, e.broker_order_id),
      price = coalesce(e.price, s.price), completed_at = now()
    from ended e
    where s.id = any($2::text[]) and s.id = e.id and s.account_id = $1 and s.status = 'accepted'
    returning s.user_id
  )
  ${activityChangedSql('moved')}`;

export async function savePaperChanges(tx: PaperTransaction, accountId: string, changes: PaperChanges): Promise<void> {
  const { account, orders, symbols } = changes;
  if (!account && orders.length === 0 && symbols.length === 0) return;
  const rows = orders.map((order) => {
    const { low, high } = order.status === 'open' ? reachLevels(order) : {};
    return { o: order, lo: low ?? null, hi: high ?? null };
  });
  const { rows: ended } = await tx.query<{ client_order_id: string; status: string; id: string; price: number | null }>(
    {
      name: 'paper_save',
      text: SAVE,
      values: [accountId, account ? JSON.stringify(account) : null, JSON.stringify(rows), JSON.stringify(symbols)],
    },
  );
  if (ended.length === 0) return;
  await tx.query({
    name: 'paper_ended_signals',
    text: ENDED,
    values: [
      accountId,
      ended.map((e) => e.client_order_id),
      ended.map((e) => e.status),
      ended.map((e) => e.id),
      ended.map((e) => e.price),
    ],
  });
}
