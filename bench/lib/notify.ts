// BENCH_NOTIFY=1: the trader's account gets a webhook setting (to a loopback receiver answering
// 200, counting deliveries) and an email setting (to the run's SMTP sink), all events, so every
// live signal writes order.placed and order.filled and the worker delivers them during the
// phases. Compares hook latency with notifications on and off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gqlHttp, type Trader } from '../../apps/server/test/faults/trader.ts';

export interface NotificationReceiver {
  received(): number;
  close(): Promise<void>;
}

export async function listenToNotifications(url: string, trader: Trader): Promise<NotificationReceiver> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const create = `mutation($k: String!, $a: String!, $type: Int!, $m: String!) {
    notificationCreate(connectorKey: $k, accountId: $a, type: $type, metadata: $m) { key } }`;
  const settings = [
    { type: 1, metadata: { url: `http://127.0.0.1:${port}/in` } },
    { type: 2, metadata: { email: trader.email } },
  ];
  for (const { type, metadata } of settings) {
    const variables = { k: trader.connectorKey, a: trader.accountId, type, m: JSON.stringify(metadata) };
    await gqlHttp(url, create, variables, trader.token);
  }
  return {
    received: () => received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
