// One POST to a receiver, guarded (issue #17 point 5): the host is resolved and checked here and
// the connection goes to those checked addresses (the socket's lookup answers with them, so no
// second resolution can rebind the name; one that refuses the connection passes to the next);
// TLS still verifies the certificate against the hostname.
// Redirects are not followed; the whole exchange has a deadline; at most 64 KiB of the answer
// is read.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ForbiddenAddressError, type LookupAll, resolveTargets } from './address-guard.ts';
import type { WebhookAgents } from './webhook-agents.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface WebhookRequestOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  /** The resolver (tests: a name that resolves to a private address). */
  lookup?: LookupAll;
  /** Kept-alive connections (the worker's); without them each request has its own. */
  agents?: WebhookAgents;
}

export interface WebhookResponse {
  ok: boolean;
  /** The receiver's HTTP status, null when none came. */
  status: number | null;
  /** Why it failed, for the delivery log (never the response body). */
  error: string | null;
}

function failure(error: string, status: number | null = null): WebhookResponse {
  return { ok: false, status, error };
}

/** Why a request failed, in words for the delivery log. */
function describe(error: unknown, timeoutMs: number): string {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR') {
    return `Timed out after ${timeoutMs / 1000} s`;
  }
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'Connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Host not found';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS: ${code}`;
  return code ?? message ?? 'Request failed';
}

/** Rejects with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: WebhookRequestOptions,
): Promise<WebhookResponse> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const target = new URL(url);
  const signal = AbortSignal.timeout(timeoutMs);
  let resolved: Awaited<ReturnType<typeof resolveTargets>>;
  try {
    // The timeout covers the whole exchange, the name's resolution too (getaddrinfo cannot be
    // aborted: a resolver that hangs is left behind).
    resolved = await Promise.race([
      resolveTargets(target.hostname, options.allowPrivate, options.lookup),
      aborted(signal),
    ]);
  } catch (error) {
    return failure(error instanceof ForbiddenAddressError ? `Refused: ${error.message}` : describe(error, timeoutMs));
  }
  // Every checked address when the socket asks for all (net's autoSelectFamily, on by default
  // since Node 20: it tries them in turn).
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, resolved);
    else callback(null, resolved[0].address, resolved[0].family);
  };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const transport = target.protocol === 'https:' ? https : http;
  // The headers as a flat [name, value, …] list: Node writes them as given, without a setHeader
  // per header (its header map, a pair and a lower-cased name each); the same bytes on the wire as
  // the object with Node's Host (`target.host`: the hostname, bracketed for IPv6, and a port
  // other than the scheme's), which Node adds only to an object.
  const rawHeaders: string[] = [];
  for (const name in headers) rawHeaders.push(name, headers[name] as string);
  rawHeaders.push('content-length', String(Buffer.byteLength(body)), 'Host', target.host);
  const send = (agent: http.Agent | false) =>
    new Promise<WebhookResponse & { staleSocket?: boolean }>((resolve) => {
      const request = transport.request(
        {
          host,
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: rawHeaders,
          lookup,
          agent,
          signal,
        },
        (response) => {
          const status = response.statusCode ?? null;
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            // The answer matters only by its status; a receiver streaming more is cut off.
            if (read >= MAX_RESPONSE_BYTES) response.destroy();
          });
          const settle = () => {
            if (status !== null && status >= 200 && status < 300) resolve({ ok: true, status, error: null });
            else if (status !== null && status >= 300 && status < 400)
              resolve(failure('Redirect not followed', status));
            else resolve(failure(`HTTP ${status}`, status));
          };
          response.on('end', settle);
          response.on('close', settle);
          response.on('error', () => settle());
        },
      );
      request.on('error', (error) => {
        // A kept-alive connection the receiver had just closed: not the receiver's failure.
        const stale = request.reusedSocket && (error as { code?: string }).code === 'ECONNRESET' && !signal.aborted;
        resolve({ ...failure(describe(error, timeoutMs)), staleSocket: stale });
      });
      request.end(body);
    });
  const addresses = resolved.map((a) => a.address).join(',');
  const first = await send(options.agents ? options.agents.agentFor(target, addresses) : false);
  const { staleSocket, ...answer } = first.staleSocket ? await send(false) : first;
  return answer;
}
