// PostgreSQL restarted under load (an external one, DATABASE_URL, so the drill can stop and
// start it; the embedded one is the server's child and is not restarted behind its back). While
// it is down, signals get a clear 503 {status: 'Error', message} fast — never a hang, which
// TradingView would resend anyway; once it is back the server serves again by itself (pool
// reconnects, the hook_changed listener reconnects), and the books hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Drill, paperBooks, startDrill } from './drill.ts';
import { type ExternalPostgres, postgresBin, startExternalPostgres } from './external-postgres.ts';
import { freshDataDir } from './live-server.ts';
import { order, post, type Sent, startLoad } from './load.ts';
import { gqlHttp } from './trader.ts';

const bin = postgresBin();
const DEADLINE_MS = 2_500;
const DOWN_MS = 2_000;
let database: ExternalPostgres | undefined;
let drill: Drill;

beforeAll(async () => {
  if (!bin)
    throw new Error('no /usr/lib/postgresql/*/bin/pg_ctl: run the drills through `npm test`, which installs it');
  database = await startExternalPostgres(bin);
  drill = await startDrill({ DATABASE_URL: database.url, HOOK_RECONCILE_AFTER_MS: '2000' }, {}, freshDataDir());
});
afterAll(async () => {
  if (drill?.server.process.child.exitCode !== null) console.error(drill?.server.process.output());
  await drill?.close();
  await database?.stop();
});

describe('PostgreSQL restarted under load', () => {
  it('answers 503 fast while it is down and recovers by itself', async () => {
    const [live, test] = drill.trader.hooks as [string, string];
    const url = drill.server.url;
    const load = startLoad({
      url,
      shortKey: live,
      workers: 12,
      maxMs: 60_000,
      maxRequests: 50_000,
      body: (n) => order('pg', n),
    });
    const testLoad = startLoad({
      url,
      shortKey: test,
      workers: 4,
      maxMs: 60_000,
      maxRequests: 50_000,
      body: (n) => order('pgt', n),
    });
    await new Promise((r) => setTimeout(r, 1_500));
    const downAt = Date.now();
    await (database as ExternalPostgres).restart(DOWN_MS);
    const upAt = Date.now();
    // Back by itself: within 15 s of the start, a fresh signal is placed again.
    let recoveredAt = 0;
    for (let i = 0; i < 150 && !recoveredAt; i++) {
      const probe = await post(url, live, order('probe', i));
      load.replies.push(probe);
      if (probe.status === 201) recoveredAt = Date.now();
      else await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1_000));
    load.stop();
    testLoad.stop();
    await Promise.all([load.done, testLoad.done]);
    const replies = [...load.replies, ...testLoad.replies];
    const outage = replies.filter((r) => r.at >= downAt && r.at <= upAt + 1_000);
    const errors = replies.filter((r) => r.status !== 201);
    console.info(
      'postgres restart:',
      JSON.stringify({
        downMs: upAt - downAt,
        recoveredAfterStartMs: recoveredAt - upAt,
        answers: replies.length,
        duringOutage: outage.length,
        non201: errors.length,
        non201Statuses: [...new Set(errors.map((e) => `${e.status} ${JSON.stringify(e.body)}`))],
        slowestNon201Ms: Math.round(Math.max(0, ...errors.map((e) => e.ms))),
        noAnswer: load.failures + testLoad.failures,
      }),
    );
    expect(recoveredAt).toBeGreaterThan(0);
    expect(load.failures + testLoad.failures).toBe(0);
    expect(errors.length).toBeGreaterThan(0); // the outage was seen
    for (const e of errors) {
      expect(e.status).toBe(503);
      expect(e.body).toMatchObject({ status: 'Error', message: expect.any(String) });
      expect(e.ms).toBeLessThan(DEADLINE_MS);
    }

    // The hook_changed listener reconnected: a deleted hook is refused at once, though cached.
    expect((await post(url, test, order('cached', 1))).status).toBe(201);
    await gqlHttp(url, 'mutation($k: String!) { hookDelete(key: $k) }', { k: await hookKey(test) }, drill.trader.token);
    let refused = false;
    for (let i = 0; i < 40 && !refused; i++) {
      refused = (await post(url, test, order('deleted', i))).status === 404;
      if (!refused) await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused).toBe(true);

    // TradingView resends what got a 5xx: each becomes one signal, as if the outage never was.
    const resent: Sent[] = [];
    for (const reply of load.replies.filter((r) => r.status === 503 && r.n !== undefined)) {
      resent.push(await post(url, live, order('pg', reply.n as number)));
    }
    expect(resent.every((r) => r.status === 201 || r.status === 400)).toBe(true);
    const books = await paperBooks(drill, [...replies, ...resent], [503]);
    console.info('postgres restart books:', JSON.stringify(books));
    expect(books.problems).toEqual([]);
  });
});

async function hookKey(shortKey: string): Promise<string> {
  const { rows } = await drill.server
    .sql()
    .query<{ key: string }>('select key from hooks where short_key = $1', [shortKey]);
  return rows[0]?.key ?? '';
}
