import { describe, expect, it, vi } from 'vitest';
import {
  parseRetryAfter,
  reachingFetch,
  ServerUnreachableError,
  tryAgainText,
  UNREACHABLE_TEXT,
  unavailableText,
  unreachableMessage,
} from './unreachable.ts';

const answering = (response: () => Response) => reachingFetch(vi.fn(async () => response()) as typeof fetch);

async function failure(promise: Promise<unknown>): Promise<ServerUnreachableError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ServerUnreachableError);
  return error as ServerUnreachableError;
}

describe('reachingFetch: the server not answering is one error with one sentence', () => {
  it('makes a dropped connection a ServerUnreachableError', async () => {
    const offline = reachingFetch(vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch);
    const error = await failure(offline('/graphql', { method: 'POST' }));
    expect(error.message).toBe(UNREACHABLE_TEXT);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('lets a request the app aborted fail as it did', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = new DOMException('The operation was aborted.', 'AbortError');
    const base = vi.fn(async () => Promise.reject(aborted)) as typeof fetch;
    await expect(reachingFetch(base)('/graphql', { signal: controller.signal })).rejects.toBe(aborted);
  });

  it("says when to retry from a 503's Retry-After, and that nothing was changed", async () => {
    const shuttingDown = answering(
      () =>
        new Response(JSON.stringify({ status: 'Error', message: 'The server is shutting down, please try again' }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '5' },
        }),
    );
    const error = await failure(shuttingDown('/graphql'));
    expect(error.message).toBe(
      'The server is unavailable right now and nothing was changed. Please try again in 5 seconds.',
    );
    expect(error.retryAfterS).toBe(5);
  });

  it("reads a proxy's 502 page as the server unavailable, not as its HTML", async () => {
    const gateway = answering(() => new Response('<html><h1>502 Bad Gateway</h1></html>', { status: 502 }));
    expect((await failure(gateway('/graphql'))).message).toBe(unavailableText());
    const timeout = answering(() => new Response('<html>504</html>', { status: 504 }));
    expect((await failure(timeout('/graphql'))).message).toBe(UNREACHABLE_TEXT);
  });

  it('passes a GraphQL answer through whatever its status, and every other answer', async () => {
    const body = JSON.stringify({ errors: [{ message: 'Down', extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
    const graphQL = await answering(() => new Response(body, { status: 503 }))('/graphql');
    expect(graphQL.status).toBe(503);
    expect(await graphQL.text()).toBe(body);
    expect((await answering(() => new Response('{"data":{}}'))('/graphql')).status).toBe(200);
    expect((await answering(() => new Response('oops', { status: 500 }))('/graphql')).status).toBe(500);
  });
});

describe('when to retry', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(new Date(now + 120_000).toUTCString(), now)).toBe(120);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('says seconds, minutes past 90 seconds, or a moment', () => {
    expect(tryAgainText(1)).toBe('Please try again in 1 second.');
    expect(tryAgainText(90)).toBe('Please try again in 90 seconds.');
    expect(tryAgainText(91)).toBe('Please try again in 2 minutes.');
    expect(tryAgainText(undefined)).toBe('Please try again in a moment.');
  });
});

describe('unreachableMessage', () => {
  it("knows the client's error, inside a CombinedError too, and fetch's own wordings", () => {
    const error = new ServerUnreachableError(unavailableText(3));
    expect(unreachableMessage(error)).toBe(unavailableText(3));
    expect(unreachableMessage({ networkError: error, graphQLErrors: [] })).toBe(unavailableText(3));
    expect(unreachableMessage(new TypeError('Failed to fetch'))).toBe(UNREACHABLE_TEXT);
    expect(unreachableMessage(new TypeError('Load failed'))).toBe(UNREACHABLE_TEXT);
    expect(unreachableMessage(new TypeError('x is not a function'))).toBeNull();
    expect(unreachableMessage({ message: 'Name taken', extensions: {} })).toBeNull();
  });
});
