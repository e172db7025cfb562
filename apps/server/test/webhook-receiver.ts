// A webhook receiver on 127.0.0.1 for notification tests: it verifies every request with the
// `standardwebhooks` package (as a user's receiver would) and answers as told: 200, an error
// status, never (a hang), a redirect, or an endless body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type ReceiverMode = 'ok' | 'fail' | 'hang' | 'redirect' | 'flood';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  host: string;
  body: string;
  /** The verified payload, or null when verification failed. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  verifyError: string | null;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** How to answer the next requests, one mode each; the last one stays. */
  answer(...modes: ReceiverMode[]): void;
  /** The secret to verify with (whsec_…). */
  secret: string;
  /** Resolves with the first request after `since` (polls up to 10 s). */
  waitFor(since?: number, count?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let modes: ReceiverMode[] = ['ok'];
  const hanging = new Set<http.ServerResponse>();
  const receiver = {} as WebhookReceiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(req.headers[name] ?? '');
      let payload: ReceivedWebhook['payload'] = null;
      let verifyError: string | null = null;
      try {
        payload = new Webhook(receiver.secret).verify(body, {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        }) as ReceivedWebhook['payload'];
      } catch (error) {
        verifyError = (error as Error).message;
      }
      received.push({
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        host: header('host'),
        body,
        payload,
        verifyError,
      });
      const mode = modes.length > 1 ? (modes.shift() as ReceiverMode) : (modes[0] ?? 'ok');
      if (mode === 'ok') res.writeHead(verifyError ? 401 : 200).end('ok');
      else if (mode === 'fail') res.writeHead(500).end('down');
      else if (mode === 'redirect') res.writeHead(302, { location: `${receiver.url}/elsewhere` }).end();
      else if (mode === 'flood') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(Buffer.alloc(4 * 1024 * 1024, 'x'));
        hanging.add(res);
      } else hanging.add(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    secret: '',
    answer: (...next: ReceiverMode[]) => {
      modes = next;
    },
    async waitFor(since = 0, count = 1) {
      for (let i = 0; i < 200; i++) {
        if (received.length - since >= count) return received.slice(since, since + count);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`expected ${count} webhook(s) after ${since}, got ${received.length - since}`);
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return receiver;
}
