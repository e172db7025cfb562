// A setting whose events change (notificationUpdate, or notificationCreate of a type the account
// has) gives up its waiting deliveries of the events it no longer asks for: a setting that stopped
// asking for connector.expiring is not mailed one a minute later. Those it still asks for, and
// test notifications, stay; they follow the setting to its new address.
import { NOTIFICATION_TYPE } from '@router/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql } from '../../../test/connector-fixtures.ts';
import { lockWaiters } from '../../../test/lock-waits.ts';
import { createSetting, sendTest } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import {
  claimDueDeliveries,
  NOT_RETRIED_UNWANTED,
  recordDeliveryResults,
  resendDelivery,
} from '../../db/repositories/notification-deliveries.repository.ts';
import { NO_LONGER_WANTED } from '../../db/repositories/notifications.repository.ts';
import { emitEventsOn } from './events.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, notifications: { pollMs: 60_000 } });
});
afterAll(() => t.close());

/** Waiting deliveries (a retry due in an hour) of these event types for the setting `key`. */
async function waiting(key: string, types: readonly string[], due = "now() + interval '1 hour'") {
  await t.services.db.$client.query(
    `with events as (
      insert into notification_events (id, user_id, connector_id, account_id, type, data)
      select 'msg_' || replace(gen_random_uuid()::text, '-', ''), n.user_id, n.connector_id, n.account_id, x.type, '{}'
      from notifications n, unnest($2::text[]) as x(type) where n.key = $1
      returning id, type
    )
    insert into notification_deliveries (event_id, notification_id, type, attempts, next_attempt_at)
    select e.id, n.id, e.type, 1, ${due} from events e, notifications n where n.key = $1`,
    [key, types],
  );
}

const update = (headers: Record<string, string>, key: string, metadata: Record<string, unknown>) =>
  gql(t, headers, 'mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { key } }', {
    k: key,
    m: JSON.stringify(metadata),
  });

async function states(key: string) {
  const { rows } = await t.services.db.$client.query<{ type: string; status: string; error: string | null }>(
    `select d.type, d.status, d.error from notification_deliveries d join notifications n on n.id = d.notification_id
      where n.key = $1 order by d.type`,
    [key],
  );
  return rows;
}

it('notificationUpdate gives up the waiting deliveries of events the setting no longer asks for', async () => {
  const trader = await setupTrader(t, 'setting-change@example.com');
  const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email: 'setting-change@example.com',
  });
  await waiting(key, ['connector.expiring', 'order.placed', 'notification.test']);
  const answer = await update(trader.headers, key, { email: 'elsewhere@example.com', events: ['order.placed'] });
  expect(answer.error).toBeUndefined();
  expect(await states(key)).toEqual([
    { type: 'connector.expiring', status: 'failed', error: NO_LONGER_WANTED },
    { type: 'notification.test', status: 'pending', error: null },
    { type: 'order.placed', status: 'pending', error: null },
  ]);
});

it('notificationCreate over an existing setting does the same', async () => {
  const trader = await setupTrader(t, 'setting-recreate@example.com');
  const email = 'setting-recreate@example.com';
  const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email });
  await waiting(key, ['credits.low', 'order.rejected']);
  const again = await createSetting(
    t,
    trader.headers,
    trader.connector.key,
    trader.accountId,
    NOTIFICATION_TYPE.EMAIL,
    {
      email,
      events: ['order.rejected'],
    },
  );
  expect(again.key).toBe(key);
  expect(await states(key)).toEqual([
    { type: 'credits.low', status: 'failed', error: NO_LONGER_WANTED },
    { type: 'order.rejected', status: 'pending', error: null },
  ]);
});

it('a delivery being sent as the events change does not hold the save, and is not tried again', async () => {
  const trader = await setupTrader(t, 'setting-in-flight@example.com');
  const email = 'setting-in-flight@example.com';
  const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email });
  await waiting(key, ['credits.low'], 'now()');
  // A worker's round: the delivery claimed (locked) and being sent until `release`, then failed.
  let release = () => {};
  const sending = new Promise<void>((resolve) => {
    release = resolve;
  });
  let claimed = () => {};
  const wasClaimed = new Promise<void>((resolve) => {
    claimed = resolve;
  });
  const round = t.services.db.transaction(async (tx) => {
    const due = await claimDueDeliveries(tx, 10);
    claimed();
    await sending;
    await recordDeliveryResults(
      tx,
      due.map((d) => ({
        id: d.id,
        ok: false,
        responseCode: null,
        error: 'Mail refused',
        retryInMs: 5_000,
        inDigest: false,
      })),
    );
  });
  await wasClaimed;
  try {
    let saved = false;
    const saving = update(trader.headers, key, { email, events: ['order.placed'] }).finally(() => {
      saved = true;
    });
    while (!saved && (await lockWaiters(t.services.db.$client)) === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(saved).toBe(true);
    expect((await saving).error).toBeUndefined();
    expect(await states(key)).toEqual([{ type: 'credits.low', status: 'pending', error: null }]);
  } finally {
    release();
    await round;
  }
  expect(await states(key)).toEqual([
    { type: 'credits.low', status: 'failed', error: `Mail refused; ${NOT_RETRIED_UNWANTED}` },
  ]);
});

it('an event whose statement read the setting before a save unticked its type is not sent', async () => {
  const trader = await setupTrader(t, 'setting-race@example.com');
  const email = 'setting-race@example.com';
  const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email,
    events: ['credits.low', 'order.placed'],
  });
  // The emitting statement's snapshot, taken before the save commits (a repeatable read
  // transaction keeps it across statements, as one statement does).
  const emitter = await t.services.db.$client.connect();
  try {
    await emitter.query('begin isolation level repeatable read');
    await emitter.query('select 1 from notifications limit 1');
    expect((await update(trader.headers, key, { email, events: ['order.placed'] })).error).toBeUndefined();
    const queued = await emitEventsOn(emitter, [
      { userId: trader.userId, type: 'credits.low', data: { balance: 2, threshold: 10 } },
    ]);
    await emitter.query('commit');
    expect(queued).toBe(1);
  } finally {
    emitter.release();
  }
  // A test notification, no event the list chooses, still goes.
  const test = await sendTest(t, trader.headers, key);
  await t.services.db.transaction(async (tx) => {
    expect((await claimDueDeliveries(tx, 10)).map((d) => String(d.id))).toEqual([test.id]);
  });
  expect(await states(key)).toEqual([
    { type: 'credits.low', status: 'failed', error: NO_LONGER_WANTED },
    { type: 'notification.test', status: 'pending', error: null },
  ]);
});

it('a re-send asked for after the save still goes: the latest instruction wins', async () => {
  const trader = await setupTrader(t, 'setting-resend@example.com');
  const email = 'setting-resend@example.com';
  const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email,
    events: ['credits.low', 'order.placed'],
  });
  // A first try still waiting when the save unticks its event: given up, never tried.
  await waiting(key, ['credits.low']);
  await t.services.db.$client.query(
    `update notification_deliveries d set attempts = 0 from notifications n where n.id = d.notification_id and n.key = $1`,
    [key],
  );
  expect((await update(trader.headers, key, { email, events: ['order.placed'] })).error).toBeUndefined();
  expect(await states(key)).toEqual([{ type: 'credits.low', status: 'failed', error: NO_LONGER_WANTED }]);
  // The user re-sends it from the log: it is sent, not given up again.
  const { rows } = await t.services.db.$client.query<{ id: number }>(
    `select d.id::float8 as id from notification_deliveries d join notifications n on n.id = d.notification_id
      where n.key = $1`,
    [key],
  );
  const id = rows[0]?.id ?? 0;
  expect(await resendDelivery(t.services.db, trader.userId, id)).toBe(true);
  await t.services.db.transaction(async (tx) => {
    expect((await claimDueDeliveries(tx, 10)).map((d) => d.id)).toContain(id);
  });
});
