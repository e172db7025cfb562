import { isFailedOrderCall, parseActionMetadata } from '@router/shared';

/** What an Order row from a webhook expands to: request, response and elapsed milliseconds. */
export interface OrderCall {
  request: string;
  /** The normalized order (issue #21); '-' when the call was refused before normalizing. */
  order: string;
  /** The request as sent to the broker (redacted by the server); null when none was recorded. */
  brokerRequest: string | null;
  /** Why there is no broker request, in the trader's words. */
  notSent: string;
  response: string;
  elapsedMs: number | null;
  /** SPEC §2: status containing 'Error' (or a rejected or failed call) is styled danger. */
  failed: boolean;
}

const pretty = (value: unknown): string => {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
};

/** The broker request as it went on the wire: "POST /v2/orders", its headers, then the body. */
function wireText(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const { method, path, headers, body } = value as Record<string, unknown>;
  const lines = [`${String(method ?? '')} ${String(path ?? '')}`.trim()];
  if (headers && typeof headers === 'object') {
    for (const [name, text] of Object.entries(headers)) lines.push(`${name}: ${String(text)}`);
  }
  if (body !== undefined && body !== null) lines.push('', pretty(body));
  return lines.join('\n');
}

/** What became of a queued signal that sent nothing (its trade line's status). */
const QUEUED_NOT_SENT: Record<string, string> = {
  refused: "Not sent: queued outside the webhook's trading windows, then refused when a window opened.",
  cancelled: "Not sent: queued outside the webhook's trading windows, then cancelled.",
  placed:
    "Queued outside the webhook's trading windows, then placed when a window opened: the placement is an entry of its own.",
};

/** Why an Order entry holds no broker request. */
function notSentReason(m: Record<string, unknown>, repeat: boolean, status: string | null): string {
  if (m.isTest === true) return 'Not sent: test webhook. The signal was checked and stored, no order was placed.';
  if (repeat) return 'Not sent again: a repeat of an earlier signal, answered as that one. No second order was placed.';
  if (typeof m.signalId !== 'string') {
    const response = m.response as { status?: unknown } | null | undefined;
    if (typeof response === 'object' && response?.status === 'queued') {
      const end = status ? QUEUED_NOT_SENT[status] : undefined;
      if (end) return end;
      return "Not sent yet: queued outside the webhook's trading windows. Its placement is an entry of its own.";
    }
    return 'Not sent: the signal was refused before it reached the broker.';
  }
  return 'Not recorded for this call.';
}

/**
 * The call an Order action recorded, or null for rows that are not webhook calls. `repeat`: the
 * trade line's, a signal sent again (answered as the first, nothing sent); `status`: the trade
 * line's (a queued signal's tells what became of it).
 */
export function orderCallOf(
  code: string,
  metadata: string,
  order: string | null = null,
  repeat = false,
  status: string | null = null,
): OrderCall | null {
  if (code !== 'Order') return null;
  const m = parseActionMetadata(metadata);
  if (!('request' in m) && !('response' in m)) return null;
  const elapsed = m.elapsed;
  return {
    request: pretty(m.request),
    order: pretty(order),
    brokerRequest: wireText(m.brokerRequest),
    notSent: notSentReason(m, repeat, status),
    response: pretty(m.response),
    elapsedMs: typeof elapsed === 'number' && Number.isFinite(elapsed) ? elapsed : null,
    failed: isFailedOrderCall(m),
  };
}
