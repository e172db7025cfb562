// A Standard Webhooks 1.0 message: body `{type, timestamp, data}`; headers webhook-id (the event's
// id, the same on every retry), webhook-timestamp (this attempt, seconds) and webhook-signature
// (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per active secret, space-separated),
// signed with the `standardwebhooks` package.
import type { Webhook } from 'standardwebhooks';

export interface WebhookEvent {
  id: string;
  type: string;
  /** When the event happened. */
  at: Date;
  data: Record<string, unknown>;
}

let signer: Promise<typeof Webhook> | undefined;

/** The package is loaded with the first webhook, not at server start (like nodemailer). */
function loadSigner(): Promise<typeof Webhook> {
  signer ??= import('standardwebhooks').then((module) => module.Webhook);
  return signer;
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
  const WebhookClass = await loadSigner();
  const signatures = secrets.map((secret) => new WebhookClass(secret).sign(event.id, now, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'SignalRouter-Webhooks/1.0',
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
