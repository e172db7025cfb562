// A Standard Webhooks 1.0 message: body `{type, timestamp, data}`; headers webhook-id (the event's
// id, the same on every retry), webhook-timestamp (this attempt, seconds) and webhook-signature
// (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per active secret, space-separated),
// keyed with the base64 after `whsec_`: what the `standardwebhooks` package's sign computes (its
// receivers verify with it; the tests too), here with node:crypto's HMAC, which allocates a
// fraction of the package's pure-JS SHA-256 and base64 per webhook (bench/README.md, "alloc").
import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from './secret.ts';

export interface WebhookEvent {
  id: string;
  type: string;
  /** When the event happened. */
  at: Date;
  data: Record<string, unknown>;
}

/** One `v1,…` signature of `id.timestamp.body` with `secret` (`whsec_` + base64 of the key). */
function sign(secret: string, signed: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error("Secret can't be empty.");
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: event.data });
}

export async function webhookHeaders(
  event: WebhookEvent,
  body: string,
  secrets: readonly string[],
  now: Date = new Date(),
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signed = `${event.id}.${timestamp}.${body}`;
  let signature = '';
  for (const secret of secrets) signature = signature ? `${signature} ${sign(secret, signed)}` : sign(secret, signed);
  return {
    'content-type': 'application/json',
    'user-agent': 'SignalRouter-Webhooks/1.0',
    'webhook-id': event.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
}
