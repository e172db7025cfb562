// Test support: a fetch that remembers each wire request an adapter sends, so a validating mock
// (core/prism-mock.ts) can judge the last one sent to a path.
import type { PrismMock, PrismVerdict, PrismViolation, WireRequest } from './prism-mock.ts';

export interface JudgedRequest {
  request: WireRequest;
  verdict: PrismVerdict;
  /** The verdict's violations located in the request. */
  refusals: PrismViolation[];
}

export interface WireRecorder {
  /** The adapter's fetch, remembering each request so the mock can judge it. */
  fetch: typeof fetch;
  /** The last request sent to `path` and the mock's verdict on it. */
  lastSent(method: string, path: RegExp): Promise<JudgedRequest>;
}

/** `mock` is read when a request is judged (the mock starts in beforeAll, after the recorder). */
export function recordWire(mock: () => PrismMock): WireRecorder {
  const sent: WireRequest[] = [];
  return {
    fetch: (input, init) => {
      const url = new URL(String(input));
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const headers = { ...(init?.headers as Record<string, string> | undefined) };
      sent.push({ method: init?.method ?? 'GET', url: url.pathname + url.search, headers, ...(body ? { body } : {}) });
      return fetch(input, init);
    },
    async lastSent(method, path) {
      const request = sent
        .filter((entry) => entry.method === method && path.test(entry.url.split('?')[0] ?? ''))
        .at(-1);
      if (!request) throw new Error(`no ${method} ${path} was sent`);
      const verdict = await mock().check(request);
      return {
        request,
        verdict,
        refusals: verdict.violations.filter((violation) => violation.location[0] === 'request'),
      };
    },
  };
}
