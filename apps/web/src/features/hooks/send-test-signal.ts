// "Send test signal": the browser posts the message to the hook, on this app's own origin, as a
// platform would post it to the webhook URL; the answer is the hook's own (SPEC §8: 201 with the
// order, or 400 with {status, message}).

export interface SignalAnswer {
  httpStatus: number;
  /** The order's status (filled, accepted, draft…) or the error status (ValidationError…). */
  status: string;
  /** The error message, or the broker's status description. */
  message: string | null;
  /** The answer as sent, pretty-printed. */
  body: string;
  ok: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function readAnswer(httpStatus: number, raw: string): SignalAnswer {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = null;
  }
  const record = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  return {
    httpStatus,
    status: text(record.status) ?? `HTTP ${httpStatus}`,
    message: text(record.message) ?? text(record.status_description),
    body: json === null ? raw : JSON.stringify(json, null, 2),
    ok: httpStatus >= 200 && httpStatus < 300,
  };
}

/** Posts `body` to /hook/{shortKey}; a network failure rejects. */
export async function sendTestSignal(shortKey: string, body: string, signal?: AbortSignal): Promise<SignalAnswer> {
  const response = await fetch(`/hook/${encodeURIComponent(shortKey)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...(signal ? { signal } : {}),
  });
  return readAnswer(response.status, await response.text());
}
