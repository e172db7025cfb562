// The activity writer's batch (activity entries with the signal.refused events among them) when
// the database cannot take it for a moment: kept and written by a later flush, not dropped. Its
// once-a-minute limit on refusals with no entry is per hook and reason: one never hides another.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { ActivityWriter } from './activity-writer.ts';
import { CONNECTOR_INACTIVE, ruleRefused, TOO_MANY } from './answers.ts';
import { refusalEvent } from './refusal-event.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, notifications: { pollMs: 600_000 } });
});
afterAll(async () => {
  await t.close();
});

describe('the activity writer', () => {
  it('keeps a batch the database could not take for a moment, and writes it with the next flush', async () => {
    const trader = await setupTrader(t, 'writer-outage@example.com');
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'writer-outage@example.com',
    });
    const entry = await t.app.signalRuntime.hooks.get(trader.shortKey);
    if (!entry) throw new Error('hook not found');
    // A pool of the writer's own whose statements give up after 300 ms: a table held by another
    // session (a migration, a long lock) fails them as an outage would.
    const connectionString = (t.services.db.$client.options as { connectionString: string }).connectionString;
    const pool = new pg.Pool({ connectionString, max: 2, statement_timeout: 300 });
    const locker = await t.services.db.$client.connect();
    try {
      const writer = new ActivityWriter(pool, t.services.log);
      const answer = ruleRefused('paused', 'Webhooks are paused: outage test');
      const event = refusalEvent(entry, answer);
      if (!event) throw new Error('no event');
      writer.notify(event);
      writer.order({ hook: entry, address: null, request: '{}', response: answer.body, elapsedMs: 1, at: new Date() });

      await locker.query('begin');
      await locker.query('lock table notification_events, actions in access exclusive mode');
      await writer.flush();
      await locker.query('commit');

      const retried = new Date();
      await writer.flush();
      const events = await t.services.db.$client.query<{ data: { message: string }; created_at: Date }>(
        `select data, created_at from notification_events where user_id = $1 and type = 'signal.refused'`,
        [trader.userId],
      );
      expect(events.rows.map((r) => r.data.message).sort()).toEqual(['Webhooks are paused: outage test']);
      // The event's time (its webhook's `timestamp`) is when the signal was refused, not when the
      // kept batch was written.
      expect(events.rows[0]?.created_at.getTime()).toBeLessThan(retried.getTime());
      const entries = await t.services.db.$client.query(`select 1 from actions where user_id = $1 and code = 'Order'`, [
        trader.userId,
      ]);
      expect(entries.rows).toHaveLength(1);
    } finally {
      await locker.query('rollback').catch(() => {});
      locker.release();
      await pool.end();
    }
  });

  it('tells each reason of a refusal with no entry once a minute: a 429 hides no switched-off connection', async () => {
    const trader = await setupTrader(t, 'writer-quiet@example.com');
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'writer-quiet@example.com',
    });
    const entry = await t.app.signalRuntime.hooks.get(trader.shortKey);
    if (!entry) throw new Error('hook not found');
    const writer = new ActivityWriter(t.services.db.$client, t.services.log);
    const tell = (answer: Parameters<typeof refusalEvent>[1]) => {
      const event = refusalEvent(entry, answer);
      if (!event) throw new Error('no event');
      writer.notify(event, entry);
    };
    // A flood over the rate limit, then the connection switched off within the same minute.
    for (let i = 0; i < 3; i++) tell(TOO_MANY);
    for (let i = 0; i < 3; i++) tell(CONNECTOR_INACTIVE);
    await writer.flush();
    const events = await t.services.db.$client.query<{ data: { reason: string; message: string } }>(
      `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
      [trader.userId],
    );
    const told = events.rows.map((r) => r.data.message);
    expect(told.sort()).toEqual([CONNECTOR_INACTIVE.body.message, TOO_MANY.body.message].sort());
  });

  // Each instance kept its own minute: with two instances a flood over the rate limit was told
  // twice a minute, with three three times.
  it('tells a refusal with no entry once a minute across instances, each of a different reason still', async () => {
    const trader = await setupTrader(t, 'writer-instances@example.com');
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'writer-instances@example.com',
    });
    const entry = await t.app.signalRuntime.hooks.get(trader.shortKey);
    if (!entry) throw new Error('hook not found');
    const instances = [1, 2, 3].map(() => new ActivityWriter(t.services.db.$client, t.services.log));
    const tell = (writer: ActivityWriter, answer: Parameters<typeof refusalEvent>[1]) => {
      const event = refusalEvent(entry, answer);
      if (!event) throw new Error('no event');
      writer.notify(event, entry);
    };
    for (const writer of instances) {
      tell(writer, TOO_MANY);
      await writer.flush();
    }
    tell(instances[1] as ActivityWriter, CONNECTOR_INACTIVE);
    await instances[1]?.flush();
    const events = await t.services.db.$client.query<{ data: { message: string } }>(
      `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
      [trader.userId],
    );
    expect(events.rows.map((r) => r.data.message).sort()).toEqual(
      [CONNECTOR_INACTIVE.body.message, TOO_MANY.body.message].sort(),
    );
  });
});
