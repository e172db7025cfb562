// Two server instances on one PostgreSQL reconcile at once. A first server takes signals whose
// broker calls never answer (half of them reached the broker) and is SIGKILLed with all of them
// still 'placing'; then two servers start together on the same database and both reconcile,
// their lookups slowed so that their passes overlap. Each signal is looked up at the broker
// exactly once and settled once: kept with its order, or failed with its credit back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitSettled } from './books.ts';
import { type Drill, drillBooks, startDrill } from './drill.ts';
import { type ExternalPostgres, postgresBin, startExternalPostgres } from './external-postgres.ts';
import { type FaultBroker, startFaultBroker } from './fault-broker.ts';
import { freshDataDir, type LiveServer, removeDataDir, startLiveServer } from './live-server.ts';
import { order, post, type Sent } from './load.ts';

const bin = postgresBin();
const PER_MODE = 30;
let database: ExternalPostgres | undefined;
let broker: FaultBroker;
let drill: Drill;
let second: LiveServer | undefined;
const secondDir = freshDataDir();

beforeAll(async () => {
  if (!bin) {
    throw new Error('no /usr/lib/postgresql/*/bin/pg_ctl: run the drills through `npm test`, which installs it');
  }
  database = await startExternalPostgres(bin);
  broker = await startFaultBroker();
  drill = await startDrill(
    {
      DATABASE_URL: database.url,
      // Every instance opens the connector's secrets with the same key.
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      ALPACA_BASE_URL: broker.url,
      HOOK_DEADLINE_MS: '300',
      // The first server never reconciles: it is killed with every signal still 'placing'.
      HOOK_RECONCILE_AFTER_MS: '3600000',
    },
    { provider: 'alpaca', credentials: broker.credentials },
    freshDataDir(),
  );
});
afterAll(async () => {
  await second?.stop().catch(() => {});
  await removeDataDir(secondDir);
  await drill?.close();
  await broker?.close();
  await database?.stop();
});

describe('two instances reconciling one database', () => {
  it('look each signal up once and settle it once', async () => {
    const [live] = drill.trader.hooks as [string];
    const replies: Sent[] = [];
    for (const mode of ['hang-after-accept', 'hang'] as const) {
      broker.mode = mode;
      const sent = Array.from({ length: PER_MODE }, (_, n) => post(drill.server.url, live, order(mode, n)));
      replies.push(...(await Promise.all(sent)));
    }
    expect(replies.every((r) => r.status === 201)).toBe(true);
    await drill.server.kill();

    broker.mode = 'pass';
    broker.lookupDelayMs = 500;
    const reconcile = { HOOK_RECONCILE_AFTER_MS: '1000' };
    const [first, other] = await Promise.all([
      drill.server.restart(reconcile),
      startLiveServer({ ...drill.server.env, ...reconcile }, secondDir),
    ]);
    drill.server = first;
    second = other;
    const sql = first.sql();
    await waitSettled(sql, drill.trader.userId, 90_000);

    const { rows } = await sql.query<{ id: string; lease_owner: string | null }>(
      'select id, lease_owner from signals where user_id = $1',
      [drill.trader.userId],
    );
    const notOnce = rows
      .filter((r) => broker.lookups.get(r.id) !== 1)
      .map((r) => `${r.id}×${broker.lookups.get(r.id)}`);
    const owners = new Set(rows.map((r) => r.lease_owner));
    const books = await drillBooks(drill, broker.orderIds, replies);
    console.info('two reconcilers:', JSON.stringify({ instances: owners.size, ...books }));
    expect(rows).toHaveLength(2 * PER_MODE);
    expect(notOnce).toEqual([]);
    expect(owners.size).toBe(2);
    expect(books.problems).toEqual([]);
    expect(books.liveKept).toBe(PER_MODE);
    expect(books.liveReleased).toBe(PER_MODE);
  });
});
