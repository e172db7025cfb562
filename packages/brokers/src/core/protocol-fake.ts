// Test support: the one shape every broker folder's protocol fake is started in
// (`startProtocolFake` in adapters/<name>/fake.ts). The shared replay test (core/replay.test.ts)
// and the server's end-to-end test drive every broker through it, so a new folder is covered
// without naming it anywhere else.
import type { BrokerConfig } from './context.ts';

/** A request as the fake received it: body parsed (JSON, form) where it can be. */
export interface WireRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** A broker's recorded answer, played on the next request to `method` and `path`. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ProtocolFake {
  /** The adapter's configuration pointing at the fake: `<NAME>_BASE_URL`, OAuth client id and secret. */
  config: BrokerConfig;
  /**
   * What connect() takes: the credential values, or for OAuth a fresh code for `redirectUrl` (for
   * OAuth 1.0a, the verifier of the request token the adapter asked for last).
   */
  credentials(redirectUrl: string): Record<string, string>;
  /**
   * OAuth apps whose callback is registered with the broker once, not sent per request (E*TRADE,
   * Kite Connect): registers ours, as the operator does in the broker's developer console.
   */
  registerCallback?(redirectUrl: string): void;
  /** A signal the fake places as exactly one order. */
  signal: Record<string, unknown>;
  /** Orders the fake holds. */
  orderCount(): number;
  requests(): WireRecord[];
  answerNext(answer: RecordedAnswer): void;
  close(): Promise<void>;
}

export type StartProtocolFake = () => Promise<ProtocolFake>;

/** A body as received, read the way the broker reads it: '' is none, JSON, else form fields, else text. */
function parseWireBody(body: unknown): unknown {
  if (typeof body !== 'string') return body ?? undefined;
  if (body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return /^[^\s{[]+=/.test(body) ? Object.fromEntries(new URLSearchParams(body)) : body;
  }
}

export function wireRecord(method: string, url: string, body: unknown): WireRecord {
  const parsed = new URL(url, 'http://fake');
  return {
    method,
    path: parsed.pathname,
    query: Object.fromEntries(parsed.searchParams),
    body: parseWireBody(body),
  };
}
