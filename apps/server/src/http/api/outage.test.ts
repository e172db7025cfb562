// The database out of reach (restarting, or its connections refused): the API answers the 503 its
// document declares for a dependency that is down, which a client retries (safely, with its
// Idempotency-Key), as the hook answers TradingView; not the 500 of our own failure.
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import type { TestDatabase } from '../../../test/postgres.ts';
import { createDatabase, createPool } from '../../db/client.ts';
import { GENERIC_MESSAGE, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_S } from '../../errors.ts';

let t: TestApp;
let down: TestDatabase;

/** A loopback port nothing listens on: every connection is refused, as a stopped PostgreSQL's. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const url = `postgres://router:unused@127.0.0.1:${await closedPort()}/router`;
  const pool = createPool(url, 2);
  down = { url, pool, db: createDatabase(pool), drop: () => pool.end() };
  t = await startTestApp({ database: down });
});
afterAll(async () => {
  await t.close();
  await down.drop();
});

it('answers 503 {status, message} on every route while the database cannot be reached', async () => {
  for (const [method, url] of [
    ['GET', '/api/v1/accounts'],
    ['POST', '/api/v1/accounts/bm9uZQo/orders'],
    ['DELETE', '/api/v1/orders/nope'],
  ] as const) {
    const answer = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${'t'.repeat(43)}`, 'content-type': 'application/json' },
      ...(method === 'POST' ? { payload: { symbol: 'AAPL', action: 'buy', quantity: 1 } } : {}),
    });
    expect({ status: answer.statusCode, body: answer.json() }, `${method} ${url}`).toEqual({
      status: 503,
      body: { status: 'Error', message: UNAVAILABLE_MESSAGE },
    });
    expect(answer.json().message).not.toBe(GENERIC_MESSAGE);
    // When to try again, as every 503 says.
    expect(answer.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_S));
    // Nothing of the driver's error (address, port, query) reaches the caller.
    expect(answer.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|select/i);
  }
});

it("answers the hook's 503 with SPEC's body and when to retry (Retry-After), as the API does", async () => {
  const answer = await t.app.inject({
    method: 'POST',
    url: `/hook/${'A'.repeat(22)}`,
    headers: { 'content-type': 'text/plain' },
    payload: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
  });
  expect({ status: answer.statusCode, body: answer.json() }).toEqual({
    status: 503,
    body: { status: 'Error', message: UNAVAILABLE_MESSAGE },
  });
  expect(answer.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_S));
});

it('answers /graphql SERVICE_UNAVAILABLE with the seconds to wait in extensions.retryAfter', async () => {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: `Bearer ${'t'.repeat(43)}` },
    payload: { query: '{ user { email } }' },
  });
  expect(answer.json().errors?.[0]).toMatchObject({
    message: UNAVAILABLE_MESSAGE,
    extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: UNAVAILABLE_RETRY_AFTER_S },
  });
});
