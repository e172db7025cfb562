// Helpers for notification delivery tests: settings through GraphQL, the delivery log, and
// waiting for the worker (which polls on its own timer) to reach a state.
import type { TestApp } from './app.ts';
import { gql } from './connector-fixtures.ts';

export interface DeliveryAnswer {
  id: string;
  notificationKey: string;
  type: number;
  eventId: string;
  event: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  error: string | null;
  inDigest: boolean;
}

const DELIVERY_FIELDS = 'id notificationKey type eventId event status attempts responseCode error inDigest';

export async function createSetting(
  t: TestApp,
  headers: Record<string, string>,
  connectorKey: string,
  accountId: string,
  type: number,
  metadata: Record<string, unknown>,
): Promise<{ key: string; secret: string | null }> {
  const answer = await gql<{ notificationCreate: { key: string; secret: string | null } }>(
    t,
    headers,
    `mutation($k: String!, $a: String!, $type: Int!, $m: String!) {
      notificationCreate(connectorKey: $k, accountId: $a, type: $type, metadata: $m) { key secret } }`,
    { k: connectorKey, a: accountId, type, m: JSON.stringify(metadata) },
  );
  if (!answer.data) throw new Error(`notificationCreate failed: ${answer.error?.message}`);
  return answer.data.notificationCreate;
}

export async function deliveries(
  t: TestApp,
  headers: Record<string, string>,
  connectorKey: string,
  accountId: string,
): Promise<DeliveryAnswer[]> {
  const answer = await gql<{ notificationDeliveries: DeliveryAnswer[] }>(
    t,
    headers,
    `query($k: String!, $a: String!) { notificationDeliveries(connectorKey: $k, accountId: $a) { ${DELIVERY_FIELDS} } }`,
    { k: connectorKey, a: accountId },
  );
  if (!answer.data) throw new Error(`notificationDeliveries failed: ${answer.error?.message}`);
  return answer.data.notificationDeliveries;
}

export async function sendTest(t: TestApp, headers: Record<string, string>, key: string): Promise<DeliveryAnswer> {
  const answer = await gql<{ notificationTest: DeliveryAnswer }>(
    t,
    headers,
    `mutation($k: String!) { notificationTest(key: $k) { ${DELIVERY_FIELDS} } }`,
    { k: key },
  );
  if (!answer.data) throw new Error(`notificationTest failed: ${answer.error?.message}`);
  return answer.data.notificationTest;
}

/** Polls `read` until `done` holds for its answer (up to 15 s); returns that answer. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 300; i++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not reached; last: ${JSON.stringify(last)}`);
}
