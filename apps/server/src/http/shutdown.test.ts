// Shutdown (SIGTERM runs server.stop, which closes the app, then the pool): an order in flight
// finishes and its outcome is stored before what brokers keep between calls (sessions, sockets)
// is closed; work a request left running after its answer (a password reset's mail) is done.
import { type Broker, BrokerError } from '@router/brokers';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app.ts';
import { confirmedUser } from '../../test/identity.ts';
import { FLAKY_TITLE, flakyBroker, postSignal, setupTrader, signalRows } from '../../test/signal-fixtures.ts';
import { startSmtpSink } from '../../test/smtp-sink.ts';
import { ACTION } from '../modules/actions/codes.ts';

/** A slow broker whose calls run on a session its close() ends, as Rithmic's socket does. */
function sessionBroker() {
  const flaky = flakyBroker();
  flaky.mode = 'slow';
  flaky.delayMs = 700;
  const running = new Set<() => void>();
  const events: string[] = [];
  const broker: Broker = {
    ...flaky.broker,
    placeOrder: (ctx, session, input) =>
      new Promise((resolve, reject) => {
        const cut = () =>
          reject(new BrokerError('BrokerUnavailable', FLAKY_TITLE, 'session closed', { outcomeUnknown: true }));
        running.add(cut);
        flaky.broker.placeOrder(ctx, session, input).then((order) => {
          running.delete(cut);
          events.push('placed');
          resolve(order);
        }, reject);
      }),
    close() {
      events.push('closed');
      for (const cut of running) cut();
    },
  };
  return { flaky, broker, events };
}

describe('shutting down with an order in flight', () => {
  it('lets the broker call finish and stores its outcome before closing the broker, placing once', async () => {
    const { flaky, broker, events } = sessionBroker();
    const t = await startTestApp({ brokers: [broker], env: { HOOK_DEADLINE_MS: '300' } });
    let closed = false;
    try {
      const trader = await setupTrader(t, 'shutdown@example.com', { provider: 'flaky' });
      const res = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 });
      // Answered at the deadline: the broker call is still running when the server is told to stop.
      expect(res.json().status).toBe('accepted');
      await t.app.close();
      closed = true;
      expect(events).toEqual(['placed', 'closed']);
      const [signal] = await signalRows(t, trader.userId);
      expect(signal?.status).toBe('filled');
      expect(signal?.broker_order_id).toMatch(/^FB-/);
      expect(flaky.calls.placeOrder).toBe(1);
      expect(flaky.orders.size).toBe(1);
    } finally {
      if (!closed) await t.app.close();
      await t.services.identity.settled();
      await t.database.drop();
    }
  });
});

describe('shutting down while an early answer is being recorded', () => {
  it('waits for the answer given at the deadline to be stored with the signal', async () => {
    const flaky = flakyBroker();
    flaky.mode = 'slow';
    flaky.delayMs = 400;
    const t = await startTestApp({ brokers: [flaky.broker], env: { HOOK_DEADLINE_MS: '200' } });
    const pool = t.services.db.$client;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let recorded = false;
    // The early answer's write is slow to reach the database (a busy pool) when the server stops.
    pool.query = ((...args: unknown[]) => {
      if ((args[0] as { name?: string } | undefined)?.name !== 'signal_answer') return query(...args);
      return gate
        .then(() => query(...args))
        .then((result) => {
          recorded = true;
          return result;
        });
    }) as typeof pool.query;
    let closed = false;
    try {
      const trader = await setupTrader(t, 'early-answer@example.com', { provider: 'flaky' });
      const res = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 });
      expect(res.json().status).toBe('accepted');
      const closing = t.app.close().then(() => {
        closed = true;
        return recorded;
      });
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      open();
      // Recorded before the app closed (the pool ends next).
      expect(await closing).toBe(true);
      const [signal] = await signalRows(t, trader.userId);
      expect(signal?.response).toMatchObject({ status: 'accepted' });
    } finally {
      open();
      if (!closed) await t.app.close();
      await t.services.identity.settled();
      await t.database.drop();
    }
  });
});

describe('shutting down right after a password reset request', () => {
  it('sends its mail and logs it before the app has closed (the pool closes next)', async () => {
    const smtp = await startSmtpSink();
    const t = await startTestApp({ env: { SMTP_URL: smtp.url } });
    const email = 'reset-closing@example.test';
    let closed = false;
    try {
      const { id } = await confirmedUser(t, email);
      const since = smtp.mails.length;
      const res = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        payload: {
          query: 'mutation($email: String!) { authPasswordResetRequest(email: $email) }',
          variables: { email },
        },
      });
      expect(res.json()).toEqual({ data: { authPasswordResetRequest: true } });
      await t.app.close();
      closed = true;
      expect(smtp.mails.slice(since).filter((mail) => mail.to.includes(email))).toHaveLength(1);
      const { rows } = await t.database.pool.query(`select 1 from actions where user_id = $1 and code = $2`, [
        id,
        ACTION.PASSWORD_RESET_REQUEST,
      ]);
      expect(rows).toHaveLength(1);
    } finally {
      if (!closed) await t.app.close();
      await t.services.identity.settled();
      await t.database.drop();
      await smtp.close();
    }
  });
});
