// The paper broker's accounts, orders and symbol states: reads for a store transaction, one read
// up front for a batch, and the writes of a batch in one statement. Callers hold the
// account's transaction-level advisory lock (the account row may not exist yet when `connect`
// creates it, so a row lock would not do).
import {
  type Known,
  type PaperAccount,
  type PaperChanges,
  type PaperOrder,
  type PaperSource,
  type PaperSymbolState,
  reachLevels,
} from '@router/brokers';
import { and, asc, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { paperAccounts, paperOrders, paperSymbols } from '../schema/index.ts';
import type { Transaction } from './executor.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';
import { signalEventSource } from './signal-events.sql.ts';

/** Namespace of the advisory locks (first key of the two-key form): 'PAPR'. */
const LOCK_CLASS = 0x50415052;

/** Runs `fn` in a database transaction holding the account's advisory lock. */
export function paperTransaction<T>(db: Database, accountId: string, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${accountId}))`);
    return fn(tx);
  });
}

const asOrders = (rows: Array<{ data: unknown }>) => rows.map((row) => row.data as PaperOrder);
/** The account's state as the database holds it. */
export function paperSource(tx: Transaction, accountId: string): PaperSource {
  const ofAccount = eq(paperOrders.accountId, accountId);
  const open = and(ofAccount, eq(paperOrders.status, 'open'));
  const orderWhere = async (where: SQL | undefined) =>
    asOrders(await tx.select({ data: paperOrders.data }).from(paperOrders).where(where));
  return {
    async getAccount() {
      const [row] = await tx
        .select({ data: paperAccounts.data })
        .from(paperAccounts)
        .where(eq(paperAccounts.id, accountId));
      return row ? (row.data as PaperAccount) : null;
    },
    async getOrder(orderId) {
      return (await orderWhere(and(ofAccount, eq(paperOrders.id, orderId))))[0] ?? null;
    },
    async findOrderByClientId(clientOrderId) {
      return (await orderWhere(and(ofAccount, eq(paperOrders.clientOrderId, clientOrderId))))[0] ?? null;
    },
    async listOpenOrders(symbol) {
      const rows = await tx
        .select({ data: paperOrders.data })
        .from(paperOrders)
        .where(symbol === undefined ? open : and(open, eq(paperOrders.symbol, symbol)))
        .orderBy(asc(paperOrders.createdAt), asc(paperOrders.id));
      return asOrders(rows);
    },
    async listReachedOrders(symbol, reach) {
      // Each branch walks its partial index from the market outwards; an order sits in one branch.
      const branch = (condition: SQL) =>
        sql`select ${paperOrders.data} as data from ${paperOrders} where ${paperOrders.accountId} = ${accountId}
            and ${paperOrders.status} = 'open' and ${paperOrders.symbol} = ${symbol} and ${condition}`;
      const branches = [
        branch(sql`${paperOrders.reachLow} >= ${reach.low}`),
        branch(sql`${paperOrders.reachHigh} <= ${reach.high}`),
      ];
      if (reach.expiringBy !== undefined) branches.push(branch(sql`${paperOrders.expiresAt} <= ${reach.expiringBy}`));
      const { rows } = await tx.execute<{ data: unknown }>(sql.join(branches, sql` union all `));
      return asOrders(rows);
    },
    async listFills(since, limit) {
      const rows = await tx
        .select({ data: paperOrders.data })
        .from(paperOrders)
        .where(and(ofAccount, eq(paperOrders.status, 'filled'), gte(paperOrders.filledAt, since)))
        .orderBy(desc(paperOrders.filledAt), desc(paperOrders.createdAt))
        .limit(limit);
      return asOrders(rows);
    },
    async getSymbol(symbol) {
      const [row] = await tx
        .select({ data: paperSymbols.data })
        .from(paperSymbols)
        .where(and(eq(paperSymbols.accountId, accountId), eq(paperSymbols.symbol, symbol)));
      return row ? (row.data as PaperSymbolState) : null;
    },
    async listActiveSymbols() {
      const rows = await tx
        .select({ data: paperSymbols.data })
        .from(paperSymbols)
        .where(and(eq(paperSymbols.accountId, accountId), sql`${paperSymbols.open} > 0`));
      return rows.map((row) => row.data as PaperSymbolState);
    },
  };
}

/**
 * What a batch will need, in one query: the account, the orders of these client order ids, these
 * symbols' states. The ids are a list of parameters (`in ($1, ...)`), which lets PostgreSQL use the
 * partial index on client order ids; a subquery would not.
 */
export async function readAhead(
  tx: Transaction,
  accountId: string,
  clientOrderIds: readonly string[],
  symbols: readonly string[],
): Promise<Known> {
  const { rows } = await tx.execute<{ kind: string; data: unknown }>(sql`
    select 'a' as kind, ${paperAccounts.data} as data from ${paperAccounts} where ${paperAccounts.id} = ${accountId}
    union all
    select 'o', ${paperOrders.data} from ${paperOrders}
    where ${paperOrders.accountId} = ${accountId} and ${inArray(paperOrders.clientOrderId, [...clientOrderIds])}
    union all
    select 's', ${paperSymbols.data} from ${paperSymbols}
    where ${paperSymbols.accountId} = ${accountId} and ${inArray(paperSymbols.symbol, [...symbols])}`);
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.data);
  return {
    account: (of('a')[0] as PaperAccount | undefined) ?? null,
    clientOrderIds,
    orders: of('o') as PaperOrder[],
    symbols,
    states: of('s') as PaperSymbolState[],
  };
}

/**
 * Writes a batch's changes in one statement (one round trip): the account, the orders and the
 * symbol states, each a data-modifying CTE present only when it has something to write (the
 * orders' foreign key to the account is checked at the statement's end, after the account's
 * insert). A resting order of a signal that fills here emits order.filled in the orders' CTEs (an
 * order filled when placed is told by the signal's outcome instead).
 */
export async function savePaperChanges(tx: Transaction, accountId: string, changes: PaperChanges): Promise<void> {
  const { account, orders, symbols } = changes;
  const parts: SQL[] = [];
  if (account) {
    parts.push(sql`account_saved as (
      insert into ${paperAccounts} (id, data) values (${accountId}, ${JSON.stringify(account)}::jsonb)
      on conflict (id) do update set data = excluded.data, updated_at = now()
      returning 1)`);
  }
  if (orders.length > 0) {
    // The orders as one JSON array, in order of first write: one parameter however many there
    // are. A client order id used twice fails on paper_orders_client_idx.
    const rows = JSON.stringify(
      orders.map((order) => {
        const { low, high } = order.status === 'open' ? reachLevels(order) : {};
        return { o: order, lo: low ?? null, hi: high ?? null };
      }),
    );
    parts.push(sql`order_rows as (select ${rows}::jsonb as rows), previous as (
        select id, status from ${paperOrders} where account_id = ${accountId}
          and id in (select r->'o'->>'id' from order_rows, jsonb_array_elements(order_rows.rows) as r)
      ), saved as (
        insert into ${paperOrders} (account_id, id, client_order_id, status, created_at, symbol, reach_low, reach_high,
          expires_at, filled_at, data)
        select ${accountId}, o->>'id', o->>'clientOrderId', o->>'status', (o->>'createdAt')::bigint, o->>'symbol',
          (r->>'lo')::float8, (r->>'hi')::float8, (o->>'expiresAt')::bigint, (o->>'filledAt')::bigint, o
        from order_rows, jsonb_array_elements(order_rows.rows) with ordinality as x(r, n), lateral (select r->'o' as o) as y
        order by n
        on conflict (account_id, id) do update set
          client_order_id = excluded.client_order_id, status = excluded.status, created_at = excluded.created_at,
          symbol = excluded.symbol, reach_low = excluded.reach_low, reach_high = excluded.reach_high,
          expires_at = excluded.expires_at, filled_at = excluded.filled_at, data = excluded.data
        returning id, client_order_id, status, data
      ), fills as (
        select s.id, s.user_id, s.hook_id, s.connector_id, s.account_id, s.provider_name, s.is_test, o.status, s."order",
          o.id as broker_order_id, (o.data->>'fillPrice')::float8 as price, array['order.filled'] as types,
          null::text as message
        from saved o join previous p on p.id = o.id and p.status = 'open'
        join signals s on s.id = o.client_order_id and s.account_id = ${accountId}
        where o.status = 'filled'
      ), fill_events as (${sql.raw(signalEventSource('fills'))}),
      ${sql.raw(notificationEventCtes('fill_events'))}`);
  }
  if (symbols.length > 0) {
    parts.push(sql`symbols_saved as (
      insert into ${paperSymbols} (account_id, symbol, open, data)
      select ${accountId}, s->>'symbol', (s->>'open')::int, s
      from jsonb_array_elements(${JSON.stringify(symbols)}::jsonb) as s
      on conflict (account_id, symbol) do update set open = excluded.open, data = excluded.data
      returning 1)`);
  }
  if (parts.length === 0) return;
  await tx.execute(sql`with ${sql.join(parts, sql`, `)} select 1`);
}
