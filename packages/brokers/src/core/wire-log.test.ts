// The order call's wire request (issue #21 detail view): recorded by the shared HTTP client inside
// a wire log, with every secret left out or redacted, bounded; nothing recorded outside one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from './http.ts';
import { createWireLog, REDACTED, recordBrokerRequest, redactWireRequest } from './wire-log.ts';

const API_KEY = 'PKLIVE0123456789';
const API_SECRET = 'sk-live-0f1e2d3c4b5a';
const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.trader.sig';

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"id":"B-1","status":"accepted"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () =>
  createHttpClient({
    brokerTitle: 'Test Broker',
    baseUrl,
    headers: {
      'APCA-API-KEY-ID': API_KEY,
      'APCA-API-SECRET-KEY': API_SECRET,
      Authorization: `Bearer ${ACCESS_TOKEN}`,
      'X-Signature': 'c2lnbmF0dXJl',
      'X-Broker-Account': API_KEY,
      'X-Request-Source': 'router',
    },
  });

describe('the wire log', () => {
  it('records the order request as sent, with no secret in it', async () => {
    const wire = createWireLog([API_KEY, API_SECRET, ACCESS_TOKEN]);
    await wire.run(async () => {
      await client().request({ path: '/v2/account', query: { api_key: 'abc', fields: 'cash' } });
      await client().request({
        path: '/v2/orders',
        query: { signature: 'deadbeef', account: 'A-1' },
        json: { symbol: 'AAPL', qty: '2', client_order_id: 'sig1', note: `from ${API_KEY}`, passphrase: 'hunter22' },
      });
    });
    expect(wire.requests).toHaveLength(2);
    const order = wire.orderRequest();
    expect(order).toEqual({
      method: 'POST',
      path: `/v2/orders?signature=${encodeURIComponent(REDACTED)}&account=A-1`,
      headers: { accept: 'application/json', 'X-Request-Source': 'router', 'content-type': 'application/json' },
      body: { symbol: 'AAPL', qty: '2', client_order_id: 'sig1', note: `from ${REDACTED}`, passphrase: REDACTED },
    });
    const everything = JSON.stringify(wire.requests);
    for (const secret of [API_KEY, API_SECRET, ACCESS_TOKEN, 'c2lnbmF0dXJl', 'deadbeef', 'hunter22', 'abc'])
      expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/authorization|secret-key|key-id|x-signature/i);
  });

  it('tells whether only reads were sent: none recorded, or any that may change state, is not that', async () => {
    const wire = createWireLog([]);
    expect(wire.sentOnlyReads()).toBe(false);
    await wire.run(async () => {
      await client().request({ path: '/v2/account' });
      await client().request({ method: 'POST', path: '/login', mutating: false });
    });
    expect(wire.sentOnlyReads()).toBe(true);
    // A socket broker's message states nothing: it may place the order.
    await wire.run(async () => recordBrokerRequest({ method: 'WS', path: 'NewOrder' }));
    expect(wire.sentOnlyReads()).toBe(false);
    // Still so once later reads pushed the order out of the kept requests.
    await wire.run(async () => {
      for (let i = 0; i < 12; i++) await client().request({ path: '/v2/orders' });
    });
    expect(wire.requests.some((request) => request.method !== 'GET')).toBe(false);
    expect(wire.sentOnlyReads()).toBe(false);
  });

  it('reads form bodies, cuts long ones, and falls back to the last request', () => {
    const form = redactWireRequest({ method: 'post', path: '/token', body: 'grant_type=refresh&refresh_token=r1' }, []);
    expect(form.body).toEqual({ grant_type: 'refresh', refresh_token: REDACTED });
    const long = redactWireRequest({ method: 'POST', path: '/x', body: { text: 'x'.repeat(10_000) } }, []);
    expect(typeof long.body === 'string' && long.body.length).toBe(4_097);
    const wire = createWireLog([]);
    return wire.run(async () => {
      recordBrokerRequest({ method: 'CALL', path: 'placeOrder', body: { symbol: 'AAPL' } });
      expect(wire.orderRequest()).toEqual({ method: 'CALL', path: 'placeOrder', body: { symbol: 'AAPL' } });
    });
  });

  it('redacts nested bodies field by field, keeping their order and an own __proto__ as a field', () => {
    const body = JSON.parse(
      `{"order":{"symbol":"AAPL","legs":[{"token":"t1","note":"by ${API_KEY}"}],"2":"two"},"__proto__":{"pin":"1234"},"accountId":"A-1"}`,
    );
    const { body: redacted } = redactWireRequest({ method: 'CALL', path: 'placeOrder', body }, [API_KEY]);
    expect(JSON.stringify(redacted)).toBe(
      `{"order":{"2":"two","symbol":"AAPL","legs":[{"token":"${REDACTED}","note":"by ${REDACTED}"}]},"__proto__":{"pin":"${REDACTED}"},"accountId":"A-1"}`,
    );
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(body.order.legs[0].token).toBe('t1');
  });

  it('records nothing outside a wire log, and keeps each log to its own call', async () => {
    const a = createWireLog([]);
    const b = createWireLog([]);
    recordBrokerRequest({ method: 'GET', path: '/outside' });
    await Promise.all([
      a.run(() => client().request({ path: '/a', json: {} })),
      b.run(() => client().request({ path: '/b' })),
    ]);
    expect(a.requests.map((r) => r.path)).toEqual(['/a']);
    expect(b.requests.map((r) => r.path)).toEqual(['/b']);
  });
});
