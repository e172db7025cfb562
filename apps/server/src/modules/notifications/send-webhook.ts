// One claimed webhook delivery: sign with the setting's secrets, POST through the guard, and
// say what to record.
import type { ClaimedDelivery, DeliveryResult } from '../../db/repositories/notification-deliveries.repository.ts';
import type { LookupAll } from './address-guard.ts';
import { nextRetry } from './delivery-rules.ts';
import { signingSecrets } from './secret.ts';
import type { WebhookAgents } from './webhook-agents.ts';
import { webhookBody, webhookHeaders } from './webhook-message.ts';
import { postWebhook } from './webhook-request.ts';

export interface WebhookDeps {
  secretsKey: Buffer;
  allowPrivate: boolean;
  schedule: readonly number[];
  timeoutMs?: number;
  lookup?: LookupAll;
  agents?: WebhookAgents;
  /** Opened secrets by setting, for one round (a setting's many deliveries open them once). */
  secrets?: Map<number, string[]>;
}

/** Never throws: an unexpected failure is an attempt that failed (and is retried). */
export async function sendWebhook(deps: WebhookDeps, delivery: ClaimedDelivery): Promise<DeliveryResult> {
  try {
    return await attemptWebhook(deps, delivery);
  } catch (error) {
    return {
      id: delivery.id,
      inDigest: false,
      ok: false,
      responseCode: null,
      error: `Not sent: ${(error as Error).message ?? 'error'}`.slice(0, 300),
      retryInMs: nextRetry(deps.schedule, delivery),
    };
  }
}

async function attemptWebhook(deps: WebhookDeps, delivery: ClaimedDelivery): Promise<DeliveryResult> {
  const attempt = { id: delivery.id, inDigest: false };
  const giveUp = (error: string): DeliveryResult => ({
    ...attempt,
    ok: false,
    responseCode: null,
    error,
    retryInMs: null,
  });
  const url = delivery.metadata.url;
  if (!url) return giveUp('No webhook URL');
  // The setting's own setup, not the receiver's (never called): no streak of its endpoint.
  if (!delivery.secret || !delivery.secretKeyId) {
    return { ...giveUp('No signing secret: rotate the secret'), ownSetup: true };
  }
  let secrets = deps.secrets?.get(delivery.notificationId);
  try {
    secrets ??= signingSecrets(
      deps.secretsKey,
      { connectorId: delivery.connectorId, accountId: delivery.accountId, type: delivery.channel },
      { data: delivery.secret, keyId: delivery.secretKeyId },
      delivery.secretRotatedAt,
    );
  } catch {
    // This server's setup, not the receiver's nor the setting's: an instance started with another
    // SECRETS_KEY is put right by its operator (as a connector's unreadable secrets deactivate
    // nothing), so the event waits for it through the retry schedule instead of being lost.
    return {
      ...attempt,
      ok: false,
      responseCode: null,
      error: 'The signing secret cannot be opened (SECRETS_KEY changed?): rotate the secret',
      retryInMs: nextRetry(deps.schedule, delivery),
      // Not the receiver's failure: no streak of its endpoint, so no disable and no notice
      // asking the user to fix a receiver that is fine.
      ownSetup: true,
    };
  }
  deps.secrets?.set(delivery.notificationId, secrets);
  const event = { id: delivery.eventId, type: delivery.eventType, at: delivery.eventAt, data: delivery.data };
  const body = webhookBody(event);
  const headers = await webhookHeaders(event, body, secrets);
  const response = await postWebhook(url, headers, body, {
    allowPrivate: deps.allowPrivate,
    timeoutMs: deps.timeoutMs,
    lookup: deps.lookup,
    agents: deps.agents,
  });
  return {
    ...attempt,
    ok: response.ok,
    responseCode: response.status,
    error: response.error,
    retryInMs: response.ok ? null : nextRetry(deps.schedule, delivery),
  };
}
