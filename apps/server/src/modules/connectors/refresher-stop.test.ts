// The background refresher stopped (the server shutting down) while sessions are due: the pass
// ends after the refresh in hand, stored, and leaves the others due for the next start, instead
// of holding the shutdown through every due refresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { connect } from '../../../test/connector-fixtures.ts';
import { type FakeBrokerHandle, fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { untilLockWaiters } from '../../../test/lock-waits.ts';
import { startConnectorRefresher } from './refresher.ts';

let t: TestApp;
let fake: FakeBrokerHandle;
beforeAll(async () => {
  fake = fakeKeyBroker();
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [fake.broker] });
});
afterAll(() => t.close());

describe('the connector refresher stopped during a pass', () => {
  it('finishes the refresh in hand and leaves the other due sessions for the next start', async () => {
    fake.refreshInMs = -1000;
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { headers } = await insertTestUser(t.services, `refresh-stop-${i}@example.com`);
      keys.push((await connect(t, headers, 'keyfake', [`stop-${i}`, 'sekret-ok'])).key);
    }
    fake.refreshInMs = 3_600_000;
    const pool = t.services.db.$client;
    const due = async () =>
      (
        await pool.query<{ n: number }>(
          'select count(*)::int as n from connectors where key = any($1) and refresh_at <= now()',
          [keys],
        )
      ).rows[0]?.n;
    // The rows held by another session: the pass waits on the first one's lock.
    const holder = await pool.connect();
    await holder.query('begin');
    await holder.query('select 1 from connectors where key = any($1) for update', [keys]);
    const before = fake.calls.refresh;
    const stop = startConnectorRefresher(t.services, undefined, 20);
    await untilLockWaiters(pool);
    const stopped = stop();
    await holder.query('commit');
    holder.release();
    await stopped;
    expect(fake.calls.refresh - before).toBe(1);
    expect(await due()).toBe(2);
  });
});
