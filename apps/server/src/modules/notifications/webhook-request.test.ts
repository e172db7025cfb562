// The guarded POST against a real local receiver: the checked address is the one connected to,
// private answers refused, no redirects, a deadline, a capped answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { createWebhookAgents } from './webhook-agents.ts';
import { postWebhook } from './webhook-request.ts';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const headers = { 'content-type': 'application/json' };
const toLoopback = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);

describe('postWebhook', () => {
  it('connects to the address it resolved and checked, naming the host in the request', async () => {
    receiver.answer('ok');
    const since = receiver.received.length;
    toLoopback.mockClear();
    // hooks.example.test exists in no DNS: only the resolver's answer can have reached the receiver.
    const url = `http://hooks.example.test:${receiver.port}/in?x=1`;
    const answer = await postWebhook(url, headers, '{}', { allowPrivate: true, lookup: toLoopback });
    expect(answer).toMatchObject({ status: 401, ok: false }); // unsigned: the receiver refuses it
    const [request] = await receiver.waitFor(since);
    expect(request?.host).toBe(`hooks.example.test:${receiver.port}`);
    expect(toLoopback).toHaveBeenCalledTimes(1);
  });

  // `localhost` is ::1 and 127.0.0.1 where /etc/hosts says so (Docker, Ubuntu), and getaddrinfo
  // answers ::1 first: a receiver listening on 127.0.0.1 only must still be reached, as every
  // client reaches it, through the next checked address. So must a dual-stack host whose IPv6
  // the server cannot route.
  it('tries the next checked address when the first one refuses the connection', async () => {
    receiver.answer('ok');
    const dual = vi.fn(async () => [
      { address: '::1', family: 6 as const },
      { address: '127.0.0.1', family: 4 as const },
    ]);
    const agents = createWebhookAgents();
    try {
      for (const pool of [undefined, agents]) {
        const since = receiver.received.length;
        const url = `http://localhost.example.test:${receiver.port}/in`;
        const answer = await postWebhook(url, headers, '{}', { allowPrivate: true, lookup: dual, agents: pool });
        expect(answer).toMatchObject({ status: 401 }); // unsigned: the receiver refuses it
        expect(receiver.received.length).toBe(since + 1);
      }
    } finally {
      agents.close();
    }
  });

  it('counts the name resolution in the timeout: a resolver that hangs fails the delivery at the deadline', async () => {
    const hanging = vi.fn(() => new Promise<never>(() => {}));
    const url = `http://slow-dns.example.test:${receiver.port}/in`;
    const answer = await postWebhook(url, headers, '{}', { allowPrivate: true, lookup: hanging, timeoutMs: 200 });
    expect(answer).toEqual({ ok: false, status: null, error: 'Timed out after 0.2 s' });
    expect(hanging).toHaveBeenCalledTimes(1);
  });

  it('refuses a name resolving to a private address without ALLOW_PRIVATE_WEBHOOKS, sending nothing', async () => {
    const since = receiver.received.length;
    const url = `http://hooks.example.test:${receiver.port}/in`;
    const answer = await postWebhook(url, headers, '{}', { allowPrivate: false, lookup: toLoopback });
    expect(answer).toEqual({ ok: false, status: null, error: 'Refused: 127.0.0.1 is a private or reserved address' });
    const local = await postWebhook(`http://localhost:${receiver.port}/in`, headers, '{}', { allowPrivate: false });
    expect(local.error).toMatch(/^Refused: (127\.0\.0\.1|::1) is a private or reserved address$/);
    expect(receiver.received.length).toBe(since);
  });

  it('does not follow redirects', async () => {
    receiver.answer('redirect');
    const since = receiver.received.length;
    const answer = await postWebhook(`${receiver.url}/in`, headers, '{}', { allowPrivate: true });
    expect(answer).toEqual({ ok: false, status: 302, error: 'Redirect not followed' });
    expect(receiver.received.length).toBe(since + 1);
  });

  it('gives up at the deadline, and on a closed port', async () => {
    receiver.answer('hang');
    const answer = await postWebhook(`${receiver.url}/in`, headers, '{}', { allowPrivate: true, timeoutMs: 200 });
    expect(answer).toEqual({ ok: false, status: null, error: 'Timed out after 0.2 s' });
    const closed = await postWebhook('http://127.0.0.1:1/in', headers, '{}', { allowPrivate: true });
    expect(closed).toEqual({ ok: false, status: null, error: 'Connection refused' });
  });

  // Without the cap this call would wait for the deadline, past the test's own time-out.
  it('reads at most 64 KiB of an answer that never ends', async () => {
    receiver.answer('flood');
    const answer = await postWebhook(`${receiver.url}/in`, headers, '{}', { allowPrivate: true, timeoutMs: 120_000 });
    expect(answer).toEqual({ ok: true, status: 200, error: null });
  });

  it('sends the headers given, the body length and the Host, as Node writes them for a header object', async () => {
    const raw: string[][] = [];
    const server = http.createServer((req, res) => {
      raw.push(req.rawHeaders);
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const given = { 'content-type': 'application/json', 'webhook-id': 'msg_1' };
      const body = '{"é":1}';
      const pool = createWebhookAgents();
      for (const agents of [undefined, pool]) {
        const url = `http://hooks.example.test:${port}/in`;
        const answer = await postWebhook(url, given, body, { allowPrivate: true, lookup: toLoopback, agents });
        expect(answer).toEqual({ ok: true, status: 200, error: null });
      }
      pool.close();
      const expected = ['content-type', 'application/json', 'webhook-id', 'msg_1', 'content-length', '8'];
      expect(raw).toEqual([
        [...expected, 'Host', `hooks.example.test:${port}`, 'Connection', 'close'],
        [...expected, 'Host', `hooks.example.test:${port}`, 'Connection', 'keep-alive'],
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
