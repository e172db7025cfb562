// `npm run bench:reads`: the signed-in screens' reads for a trader with a long history. Starts
// the real server (fresh DATA_DIR, embedded PostgreSQL, paper broker, notifications to a loopback
// receiver and the SMTP sink), makes a trader through the public API, then gives it a history by
// sending signals as fast as they go for READS_SECONDS (default 30) to a live and a test hook
// (buys of two symbols, then a few refused). After an ANALYZE (as autovacuum would have by then), times each
// screen's GraphQL query (median of 5) and prints PostgreSQL's statements of those reads by time.
// A read that grows with the history shows here long before a trader notices it.
import { removeDataDir, startLiveServer } from '../apps/server/test/faults/live-server.ts';
import { createTrader, gqlHttp } from '../apps/server/test/faults/trader.ts';
import { startSmtpSink } from '../apps/server/test/smtp-sink.ts';
import { runSaturation } from './lib/load.ts';
import { listenToNotifications } from './lib/notify.ts';
import { printStatementStats } from './lib/statement-stats.ts';

const SECONDS = Number(process.env.READS_SECONDS ?? 30);
let counter = 0;
/** Buys of two symbols (a sell without a position is refused, and enough refusals deactivate a hook). */
const body = () => {
  counter += 1;
  return JSON.stringify({
    symbol: counter % 3 === 0 ? 'MSFT' : 'AAPL',
    action: 'buy',
    quantity: 1,
    client_id: `reads-${counter}`,
  });
};
/** A few refused signals for the activity's filters, fewer than deactivate a hook. */
const REFUSED = 20;

const TRADE = 'trade { hookKey symbol side quantity result status elapsedMs phases { parse store broker } }';

interface History {
  connectorKey: string;
  accountId: string;
  hookKey: string;
  /** The first and the last signal stored (a notification's link names one). */
  oldest: string;
  newest: string;
}

function screens({ connectorKey, accountId, hookKey, oldest, newest }: History, now: number) {
  const day = 24 * 60 * 60 * 1000;
  return [
    { name: 'activity, first page', query: `{ actions { id code createdAt ${TRADE} } }` },
    { name: 'activity, search "MSFT"', query: `{ actions(search: "MSFT") { id createdAt ${TRADE} } }` },
    { name: 'activity, search with no match', query: `{ actions(search: "NOSUCHTEXT") { id createdAt } }` },
    { name: 'activity, symbol never traded', query: `{ actions(symbol: "TSLA") { id createdAt } }` },
    { name: 'activity, rejected (none)', query: `{ actions(result: "rejected") { id createdAt } }` },
    { name: 'activity, refused only', query: `{ actions(result: "refused") { id createdAt ${TRADE} } }` },
    { name: 'activity, symbol MSFT', query: `{ actions(symbol: "MSFT") { id createdAt ${TRADE} } }` },
    { name: 'activity, one hook', query: `{ actions(hookKey: "${hookKey}") { id createdAt ${TRADE} } }` },
    { name: 'activity, the newest signal', query: `{ actions(signalId: "${newest}") { id createdAt ${TRADE} } }` },
    { name: 'activity, the oldest signal', query: `{ actions(signalId: "${oldest}") { id createdAt ${TRADE} } }` },
    { name: 'activity, last 24 h', query: `{ actions(since: ${now - day}) { id createdAt } }` },
    {
      name: 'activity, an hour ago onwards',
      query: `{ actions(createdAtFrom: ${now - 60 * 60 * 1000}) { id createdAt } }`,
    },
    { name: 'dashboard, counters', query: '{ actionsOrderCounters { hookShortKey counter counterTest } }' },
    {
      name: 'dashboard, counters per hook',
      query: '{ actionsOrderCounters(isGroup: true) { hookShortKey counter counterTest } }',
    },
    { name: 'dashboard, stats by hour', query: '{ actionsOrderStats(interval: "hour") { createdAt counter } }' },
    { name: 'dashboard, stats by day', query: '{ actionsOrderStats(interval: "day") { createdAt counter } }' },
    { name: 'dashboard, stats by month', query: '{ actionsOrderStats(interval: "month") { createdAt counter } }' },
    { name: 'account and credits', query: '{ account { balance lastGrant unlimited payments { credits } } }' },
    { name: 'credit ledger', query: '{ accountLedger { cause credits balanceAfter createdAt } }' },
    {
      name: 'hooks with health',
      query: `{ hooks(connectorKey: "${connectorKey}") { key calledAt health(since: ${now - day}) { calls errorRate } } }`,
    },
    { name: 'connectors', query: '{ connectors { key providerName accounts } }' },
    {
      name: 'notification deliveries',
      query: `{ notificationDeliveries(connectorKey: "${connectorKey}", accountId: "${accountId}") { id status attempts } }`,
    },
    {
      name: 'paper account',
      query: `{ paperAccount(connectorKey: "${connectorKey}", accountId: "${accountId}") { cash equity openOrderCount positions { symbol quantity } fills { id } } }`,
    },
    { name: 'queued signals', query: '{ queuedSignals(limit: 100) { id status } }' },
  ];
}

async function main() {
  const smtp = await startSmtpSink();
  const server = await startLiveServer({
    SMTP_URL: smtp.url,
    PG_STAT_STATEMENTS: 'true',
    ALLOW_PRIVATE_WEBHOOKS: 'true',
  });
  try {
    const trader = await createTrader(server.url, smtp, server.sql(), { balance: 100_000_000 });
    const notifications = await listenToNotifications(server.url, trader);
    const [live, test] = trader.hooks as [string, string];
    const half = Math.max(1, Math.round(SECONDS / 2));
    for (const path of [`/hook/${live}`, `/hook/${test}`]) {
      const load = await runSaturation({ url: server.url, path, seconds: half, connections: 50, body });
      console.log(`history: ${path} ${load.throughput}/s for ${half} s ${JSON.stringify(load.statusCounts)}`);
    }
    for (let i = 0; i < REFUSED; i++) {
      await fetch(`${server.url}/hook/${live}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ symbol: 'AAPL', action: 'buy' }),
      });
    }
    const db = server.sql();
    const counts = await db.query<{ signals: string; actions: string; ledger: string; deliveries: string }>(
      `select (select count(*) from signals) as signals, (select count(*) from actions) as actions,
        (select count(*) from credit_ledger) as ledger, (select count(*) from notification_deliveries) as deliveries`,
    );
    console.log(`history: ${JSON.stringify(counts.rows[0])}`);
    await db.query('analyze');
    await db.query('create extension if not exists pg_stat_statements');
    await db.query('select pg_stat_statements_reset()');
    const { rows } = await db.query<{ key: string; oldest: string; newest: string }>(
      `select h.key, (select id from signals where hook_id = h.id order by created_at limit 1) as oldest,
         (select id from signals where hook_id = h.id order by created_at desc limit 1) as newest
       from hooks h where h.short_key = $1`,
      [live],
    );
    const { key: hookKey = '', oldest = '', newest = '' } = rows[0] ?? {};
    const history = { connectorKey: trader.connectorKey, accountId: trader.accountId, hookKey, oldest, newest };
    for (const screen of screens(history, Date.now())) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await gqlHttp(server.url, screen.query, {}, trader.token);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(`${screen.name.padEnd(34)} median ${times[2]?.toFixed(1)} ms, max ${times[4]?.toFixed(1)} ms`);
    }
    await printStatementStats(db, 12);
    await notifications.close();
  } finally {
    await server.stop();
    await smtp.close();
    await removeDataDir(server.dataDir);
  }
}

await main();
