// Two server instances on one PostgreSQL, the way a load balancer runs them: the load spread over
// both, and every signal also sent to the other instance at the same moment (a sender retrying
// elsewhere: the dedupe window must hold across instances). One instance is SIGKILLed under load
// and restarted. Every answered signal is kept, each signal has exactly one order and one credit
// spent, both answers to one signal name the same signal; a hook deleted through one instance is
// refused by the other at once (hook_changed), and a sign-in limit is one limit for both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signalRows } from './books.ts';
import { type Drill, paperBooks, startDrill } from './drill.ts';
import { type ExternalPostgres, postgresBin, startExternalPostgres } from './external-postgres.ts';
import { freshDataDir, type LiveServer, removeDataDir, startLiveServer } from './live-server.ts';
import { order, post, type Sent, startLoad } from './load.ts';
import { gqlHttp, TRADER_PASSWORD } from './trader.ts';

const bin = postgresBin();
const RECONCILE = { HOOK_RECONCILE_AFTER_MS: '2000' };
let database: ExternalPostgres | undefined;
let drill: Drill;
let other: LiveServer;
const otherDir = freshDataDir();

beforeAll(async () => {
  if (!bin)
    throw new Error('no /usr/lib/postgresql/*/bin/pg_ctl: run the drills through `npm test`, which installs it');
  database = await startExternalPostgres(bin);
  const env = {
    DATABASE_URL: database.url,
    // Every instance opens the connector's secrets with the same key.
    SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
    ...RECONCILE,
  };
  drill = await startDrill(env, {}, freshDataDir());
  other = await startLiveServer({ ...drill.server.env }, otherDir);
});
afterAll(async () => {
  await other?.stop().catch(() => {});
  await removeDataDir(otherDir);
  await drill?.close();
  await database?.stop();
});

/** The signal a 201 names (its id, or the broker's order id for a placed one). */
function signalOf(reply: Sent, rows: { id: string; broker_order_id: string | null }[]): string | undefined {
  const id = (reply.body as { id?: unknown } | null)?.id;
  return rows.find((row) => row.id === id || row.broker_order_id === id)?.id;
}

describe('two instances on one PostgreSQL', () => {
  it('place each signal once across both, through a SIGKILL of one under load', async () => {
    const [live] = drill.trader.hooks as [string];
    let killed = false;
    const first = drill.server;
    const load = startLoad({
      url: first.url,
      shortKey: live,
      workers: 12,
      maxMs: 20_000,
      maxRequests: 1_500,
      body: (n) => order('two', n),
      urls: (n) => (killed ? [other.url] : n % 2 ? [first.url, other.url] : [other.url, first.url]),
    });
    for (let i = 0; i < 400 && load.replies.length < 600; i++) await new Promise((r) => setTimeout(r, 25));
    await first.kill();
    killed = true;
    const killedAt = Date.now();
    // The balancer sends everything to the survivor for a while.
    await new Promise((r) => setTimeout(r, 1_500));
    load.stop();
    await load.done;
    drill.server = await first.restart(RECONCILE);

    const books = await paperBooks(drill, load.replies);
    const rows = await signalRows(drill.server.sql(), drill.trader.userId);
    const answersOf = new Map<number, Set<string | undefined>>();
    for (const reply of load.replies) {
      if (reply.status !== 201 || reply.n === undefined) continue;
      const set = answersOf.get(reply.n) ?? new Set();
      set.add(signalOf(reply, rows));
      answersOf.set(reply.n, set);
    }
    const split = [...answersOf].filter(([, ids]) => ids.size !== 1).map(([n]) => n);
    const survivorAfterKill = load.replies.filter((r) => r.status === 201 && r.at > killedAt).length;
    // A signal stored by the killed instance just before it died, never sent, is found not placed by
    // the survivor's reconciler; a resend of it then hears so (400) and places nothing.
    const notPlaced = load.replies.filter((r) => r.status !== 201);
    for (const reply of notPlaced) {
      expect(reply).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/the order was not placed$/) },
      });
    }
    const onlyRefused = new Set(notPlaced.map((r) => r.n).filter((n) => n !== undefined && !answersOf.has(n)));
    console.info('two instances:', JSON.stringify({ ...books, failures: load.failures, survivorAfterKill }));
    expect(books.problems).toEqual([]);
    expect(split).toEqual([]);
    // One signal per request number that reached a server, not one per instance.
    expect(rows.length).toBe(answersOf.size + onlyRefused.size);
    expect(books.liveReleased).toBeGreaterThanOrEqual(onlyRefused.size);
    expect(answersOf.size).toBeGreaterThan(300);
    expect(survivorAfterKill).toBeGreaterThan(0);
  });

  it('drops a deleted hook on the other instance at once', async () => {
    const [, test] = drill.trader.hooks as [string, string];
    expect((await post(other.url, test, order('gone', 1))).status).toBe(201);
    const { rows } = await drill.server
      .sql()
      .query<{ key: string }>('select key from hooks where short_key = $1', [test]);
    const key = rows[0]?.key;
    await gqlHttp(drill.server.url, 'mutation($k: String!) { hookDelete(key: $k) }', { k: key }, drill.trader.token);
    let status = 0;
    for (let i = 0; i < 40 && status !== 404; i++) {
      status = (await post(other.url, test, order('gone', 2 + i))).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
  });

  it('counts one sign-in limit for both instances', async () => {
    const attempt = (url: string) =>
      gqlHttp<unknown>(url, 'mutation($c: JSON!) { signin(type: "password", credentials: $c) { token } }', {
        c: { email: drill.trader.email, password: `${TRADER_PASSWORD}-wrong` },
      }).then(
        () => 'ok',
        (error: Error) => (/RATE_LIMITED|Too many/.test(error.message) ? 'limited' : 'wrong'),
      );
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await attempt(i % 2 ? drill.server.url : other.url));
    // 10 a minute per address and email (RULES.signin), whichever instance answers.
    expect(outcomes.slice(0, 10).every((o) => o === 'wrong')).toBe(true);
    expect(outcomes.slice(10)).toEqual(['limited', 'limited']);
  });
});
