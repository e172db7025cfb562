// The books after a drill: answers given, signal rows, the broker's orders and the credits must
// agree. Exactly once means: every 201 names one signal; a signal holding its credit has exactly
// one order at the broker (client order id = signal id) and a signal without one has none; no
// broker order lacks its signal row; the credits spent equal the orders kept; nothing is left
// 'placing' or 'unknown' once reconciliation ran; no 5xx (unless the drill allows 503). And the
// credit ledger: the balance is its sum, each row's balance_after the running sum, every live
// signal has one 'signal' row and a released one also one 'refund' row.
import type pg from 'pg';

export interface Reply {
  status: number;
  body: unknown;
}

export interface SignalRow {
  id: string;
  status: string;
  credit_held: boolean;
  is_test: boolean;
  broker_order_id: string | null;
}

export interface Books {
  problems: string[];
  signals: number;
  liveKept: number;
  liveReleased: number;
  brokerOrders: number;
  /** 201 answers, and how many of them were answered 'accepted' (confirmation pending). */
  answered201: number;
  pending201: number;
  statusCounts: Record<string, number>;
}

export async function signalRows(sql: pg.Pool, userId: number): Promise<SignalRow[]> {
  const { rows } = await sql.query<SignalRow>(
    'select id, status, credit_held, is_test, broker_order_id from signals where user_id = $1',
    [userId],
  );
  return rows;
}

/** Waits (bounded) until no signal of the user is 'placing' or 'unknown' (reconciliation ran). */
export async function waitSettled(sql: pg.Pool, userId: number, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const { rows } = await sql.query<{ n: string }>(
      `select count(*) as n from signals where user_id = $1 and status in ('received', 'placing', 'unknown')`,
      [userId],
    );
    if (Number(rows[0]?.n) === 0) return;
    if (Date.now() > until) throw new Error(`${rows[0]?.n} signals still unfinished after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function paperOrderIds(sql: pg.Pool, accountId: string): Promise<string[]> {
  const { rows } = await sql.query<{ client_order_id: string | null }>(
    'select client_order_id from paper_orders where account_id = $1',
    [accountId],
  );
  return rows.map((r) => r.client_order_id ?? '(none)');
}

export interface BooksInput {
  sql: pg.Pool;
  userId: number;
  /** Client order ids of every order the broker holds for the account. */
  brokerOrderIds: string[];
  balanceBefore: number;
  replies: Reply[];
  /** Statuses ≥ 500 that are allowed (the PostgreSQL outage drill: 503). */
  allow5xx?: number[];
}

function idOf(body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}

export async function checkBooks(input: BooksInput): Promise<Books> {
  const problems: string[] = [];
  const rows = await signalRows(input.sql, input.userId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byBrokerId = new Map(rows.filter((r) => r.broker_order_id).map((r) => [r.broker_order_id as string, r]));
  const orders = new Map<string, number>();
  for (const id of input.brokerOrderIds) orders.set(id, (orders.get(id) ?? 0) + 1);

  const statusCounts: Record<string, number> = {};
  let answered201 = 0;
  let pending201 = 0;
  for (const reply of input.replies) {
    statusCounts[reply.status] = (statusCounts[reply.status] ?? 0) + 1;
    if (reply.status >= 500 && !input.allow5xx?.includes(reply.status)) {
      problems.push(`a ${reply.status} answer: ${JSON.stringify(reply.body)}`);
    }
    if (reply.status !== 201) continue;
    answered201++;
    const description = (reply.body as { status_description?: unknown }).status_description;
    if (typeof description === 'string' && description.endsWith('confirmation pending')) pending201++;
    const id = idOf(reply.body);
    const signal = id ? (byId.get(id) ?? byBrokerId.get(id)) : undefined;
    if (!signal) problems.push(`201 ${id} names no signal row`);
  }

  let liveKept = 0;
  let liveReleased = 0;
  for (const signal of rows) {
    if (['received', 'placing', 'unknown'].includes(signal.status)) {
      problems.push(`signal ${signal.id} still ${signal.status}`);
    }
    const count = orders.get(signal.id) ?? 0;
    if (signal.is_test) {
      if (count !== 0) problems.push(`test signal ${signal.id} has ${count} broker orders`);
      continue;
    }
    if (signal.credit_held) liveKept++;
    else liveReleased++;
    const want = signal.credit_held ? 1 : 0;
    if (count !== want) {
      problems.push(`signal ${signal.id} (${signal.status}, credit ${signal.credit_held}) has ${count} broker orders`);
    }
  }
  for (const id of orders.keys()) {
    if (!byId.has(id)) problems.push(`broker order ${id} has no signal row`);
  }
  const { rows: balance } = await input.sql.query<{ balance: number }>(
    'select balance from accounts where user_id = $1',
    [input.userId],
  );
  const spent = input.balanceBefore - Number(balance[0]?.balance);
  if (spent !== liveKept) problems.push(`credits spent ${spent} ≠ orders kept ${liveKept}`);
  problems.push(...(await ledgerProblems(input.sql, input.userId, rows)));
  return {
    problems,
    signals: rows.length,
    liveKept,
    liveReleased,
    brokerOrders: input.brokerOrderIds.length,
    answered201,
    pending201,
    statusCounts,
  };
}

/** The ledger against the balance and the signals (see the header). */
export async function ledgerProblems(sql: pg.Pool, userId: number, signals: SignalRow[]): Promise<string[]> {
  const problems: string[] = [];
  const { rows: ledger } = await sql.query<{
    credits: number;
    cause: string;
    reference: string | null;
    balance_after: number;
  }>('select credits, cause, reference, balance_after from credit_ledger where user_id = $1 order by created_at, id', [
    userId,
  ]);
  let sum = 0;
  const rowsOf = new Map<string, number>();
  for (const row of ledger) {
    sum += row.credits;
    if (row.balance_after !== sum)
      problems.push(`ledger ${row.cause} ${row.reference}: balance_after ${row.balance_after} ≠ ${sum}`);
    if (row.reference)
      rowsOf.set(`${row.cause}:${row.reference}`, (rowsOf.get(`${row.cause}:${row.reference}`) ?? 0) + 1);
  }
  const { rows: account } = await sql.query<{ balance: number }>('select balance from accounts where user_id = $1', [
    userId,
  ]);
  if (Number(account[0]?.balance) !== sum) problems.push(`balance ${account[0]?.balance} ≠ ledger sum ${sum}`);
  for (const signal of signals) {
    if (signal.is_test) continue;
    const spends = rowsOf.get(`signal:${signal.id}`) ?? 0;
    const refunds = rowsOf.get(`refund:${signal.id}`) ?? 0;
    if (spends !== 1 || refunds !== (signal.credit_held ? 0 : 1)) {
      problems.push(`signal ${signal.id} (credit ${signal.credit_held}): ${spends} spend and ${refunds} refund rows`);
    }
  }
  return problems;
}
