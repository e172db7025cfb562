// A reconnect that takes an account over from another of the user's connections moves the
// account's notification settings (modules/connectors/activate.ts, handOver). The account's
// orders still resting or unfinished at that moment must be told to those settings too: their
// fill is followed and their events are emitted for the connection that holds the account now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { connect } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { sealSecrets } from '../../crypto/secrets.ts';
import { insertConnector } from '../../db/repositories/connectors.repository.ts';
import { claimRestingSignals } from '../../db/repositories/signal-follow.repository.ts';
import { recordSignalOutcomes } from '../../db/repositories/signals.repository.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    brokers: [fakeKeyBroker().broker],
    // The test reads the deliveries queued; the worker sends none meanwhile.
    notifications: { pollMs: 600_000, maintenanceMs: 600_000 },
  });
});
afterAll(() => t.close());

const ORDER = { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 100, duration: 'gtc' };

describe('an account taken over by a reconnect', () => {
  it("tells its resting order's fill to its settings, now on the connection that holds it", async () => {
    const pool = t.database.pool;
    const { headers, id: userId } = await insertTestUser(t.services, 'hal@example.com');
    // Two connections of one broker: D-2 under one login, L-1 under another.
    const first = await connect(t, headers, 'keyfake', ['key-one', 'sekret-ok']);
    await pool.query(
      `update connectors set accounts = '[{"id":"D-2","name":"Demo two","demo":true}]'::jsonb where key = $1`,
      [first.key],
    );
    const sealed = sealSecrets(t.services.secretsKey, 'hal-second', { apiKey: 'key-two', apiSecret: 'sekret-ok' });
    const second = await insertConnector(t.services.db, {
      key: 'hal-second',
      userId,
      providerName: 'keyfake',
      isActive: true,
      accounts: [{ id: 'L-1', name: 'Live one', demo: false }],
      secrets: sealed.data,
      secretsKeyId: sealed.keyId,
    });
    await pool.query(
      `insert into notifications (key, user_id, connector_id, account_id, type, metadata)
       values ('hal-mail', $1, $2, 'L-1', 2, '{"email":"hal-desk@example.com"}')`,
      [userId, second.id],
    );
    // A limit order of L-1 resting at the broker, placed through the second connection.
    await pool.query(
      `insert into signals (id, user_id, connector_id, account_id, provider_name, status, credit_held, "order",
         broker_order_id)
       values ('hal-resting', $1, $2, 'L-1', 'keyfake', 'accepted', true, $3::jsonb, 'B-7')`,
      [userId, second.id, JSON.stringify(ORDER)],
    );

    // The broker now brings both accounts under one login: L-1 moves to the first connection.
    const reconnected = await connect(t, headers, 'keyfake', ['key-both', 'sekret-ok']);
    expect(reconnected.key).toBe(first.key);
    const { rows: setting } = await pool.query<{ connector_id: string }>(
      `select connector_id from notifications where key = 'hal-mail'`,
    );
    const firstId = Number(setting[0]?.connector_id);

    // Its setting wants order.filled: the follower takes the order up, through the connection
    // that holds the account now (the second one's credentials no longer serve it).
    const { claimed } = await claimRestingSignals(pool, {
      owner: 'handover-test',
      leaseMs: 30_000,
      minAgeMs: 0,
      dayMs: 86_400_000,
      longMs: 30 * 86_400_000,
      idleMs: 600_000,
      limit: 10,
    });
    const resting = claimed.find((s) => s.id === 'hal-resting');
    expect(Number(resting?.connector_id)).toBe(firstId);

    // Its fill is told to the setting, naming the connection that holds the account.
    await recordSignalOutcomes(pool, [
      {
        id: 'hal-resting',
        from: 'accepted',
        status: 'filled',
        brokerOrderId: 'B-7',
        price: 99.5,
        response: null,
        elapsedMs: null,
        releaseCredit: false,
        leaseOwner: 'handover-test',
        attempt: resting?.attempts ?? 0,
      },
    ]);
    const { rows: told } = await pool.query<{ type: string; data: { connectorKey: string; accountId: string } }>(
      `select e.type, e.data from notification_deliveries d join notification_events e on e.id = d.event_id
       join notifications n on n.id = d.notification_id where n.key = 'hal-mail'`,
    );
    expect(told.map((row) => [row.type, row.data.connectorKey, row.data.accountId])).toEqual([
      ['order.filled', first.key, 'L-1'],
    ]);
  });
});
