// Newest-first pages read their page through the schema's `.desc()` indexes and stop (see
// newest-first.ts): a user's long history, the whole audit log or a flood's minute of deliveries
// is neither read nor sorted on each call. Each case writes a history of HISTORY rows, analyzes
// it (as autovacuum would have) and counts what one call read, index entries and table rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { measureReads } from '../../../test/row-reads.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { listAuditEntries } from './admin-audit.repository.ts';
import { lastGrant, listLedger } from './credits.repository.ts';
import type { Transaction } from './executor.ts';
import { digestStates, listDeliveries } from './notification-deliveries.repository.ts';
import { listPayments } from './payments.repository.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(async () => {
  await t.close();
});

const HISTORY = 20_000;
/** A page of 50 reads its rows, a millisecond's ties and an index descent or two: far below this. */
const A_PAGE = 200;

/** What `call` returned and how many rows of `table` it read (test/row-reads.ts). */
const measure = <T>(table: string, call: (tx: Transaction) => Promise<T>) => measureReads(t.services.db, table, call);

const pool = () => t.services.db.$client;

describe('newest-first pages', () => {
  it("the credit ledger's page and the last grant", async () => {
    const trader = await setupTrader(t, 'ledger@example.com');
    // After the sign-up's own rows: the newest of the history is the page's first row.
    await pool().query(
      `insert into credit_ledger (user_id, created_at, credits, cause, reference, balance_after)
      select $1, now() + interval '1 hour' - (n * interval '1 second'), case when n % 1000 = 0 then 500 else -1 end,
        case when n % 1000 = 0 then 'purchase' else 'signal' end, 'history-' || n, 1000
      from generate_series(1, ${HISTORY}) n`,
      [trader.userId],
    );
    await pool().query('analyze credit_ledger');
    const page = await measure('credit_ledger', (tx) => listLedger(tx, { userId: trader.userId, limit: 50 }));
    expect(page.value).toHaveLength(50);
    expect(page.value[0]?.reference).toBe('history-1');
    expect(page.read).toBeLessThan(A_PAGE);
    const grant = await measure('credit_ledger', (tx) => lastGrant(tx, trader.userId));
    expect(grant.value).toBe(500);
    expect(grant.read).toBeLessThan(A_PAGE);
  });

  it("the audit log's page", async () => {
    await pool().query(
      `insert into admin_audit_log (created_at, admin_id, admin_email, action)
      select now() - (n * interval '1 second'), 1, 'admin@example.com', 'audit-' || n
      from generate_series(1, ${HISTORY}) n`,
    );
    await pool().query('analyze admin_audit_log');
    const page = await measure('admin_audit_log', (tx) => listAuditEntries(tx, { limit: 50 }));
    expect(page.value).toHaveLength(50);
    expect(page.value[0]?.action).toBe('audit-1');
    expect(page.read).toBeLessThan(A_PAGE);
  });

  it("a user's payments", async () => {
    const trader = await setupTrader(t, 'payments@example.com');
    await pool().query(
      `insert into payments (user_id, reference, credits, price, currency, description, created_at)
      select $1, 'cs_history_' || n, 100, 900, 'usd', 'Credits', now() - (n * interval '1 second')
      from generate_series(1, ${HISTORY}) n`,
      [trader.userId],
    );
    await pool().query('analyze payments');
    const list = await measure('payments', (tx) => listPayments(tx, trader.userId, 50));
    expect(list.value).toHaveLength(50);
    expect(list.value[0]?.reference).toBe('cs_history_1');
    expect(list.read).toBeLessThan(A_PAGE);
  });

  it("a setting's delivery log and the digest's counts", async () => {
    const trader = await setupTrader(t, 'deliveries@example.com');
    const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'deliveries@example.com',
    });
    const { rows } = await pool().query<{ id: string; connector_id: string }>(
      'select id, connector_id from notifications where key = $1',
      [key],
    );
    const notificationId = Number(rows[0]?.id);
    // A flood within the last minute, delivered but for its newest second, still pending.
    await pool().query(
      `with events as (
        insert into notification_events (id, user_id, connector_id, account_id, type, data, created_at)
        select 'msg_history' || n, $1, $2, $3, 'order.placed', '{}', now() - (n * interval '10 ms')
        from generate_series(1, ${HISTORY}) n
        returning id, created_at
      )
      insert into notification_deliveries (event_id, notification_id, type, status, attempts, next_attempt_at, created_at)
      select id, $4, 'order.placed', case when created_at > now() - interval '1 second' then 'pending' else 'delivered' end,
        1, case when created_at > now() - interval '1 second' then now() end, created_at
      from events`,
      [trader.userId, Number(rows[0]?.connector_id), trader.accountId, notificationId],
    );
    await pool().query('analyze notification_events, notification_deliveries');
    const scope = { userId: trader.userId, connectorId: Number(rows[0]?.connector_id), accountId: trader.accountId };
    const log = await measure('notification_deliveries', (tx) => listDeliveries(tx, scope, 50));
    expect(log.value).toHaveLength(50);
    expect(log.value[0]?.eventId).toBe('msg_history1');
    expect(log.read).toBeLessThan(A_PAGE);
    const digest = await measure('notification_deliveries', (tx) =>
      digestStates(tx, [{ userId: trader.userId, email: 'deliveries@example.com', type: 'order.placed' }], 60_000, 11),
    );
    expect(digest.value[0]).toMatchObject({ arrived: 11, waiting: 11 });
    expect(digest.read).toBeLessThan(A_PAGE);
  });
});
