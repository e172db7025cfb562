import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { Provider as UrqlProvider } from 'urql';
import { createAppClient } from '../lib/client.ts';
import type { FakeHandler, FakeRequest, GraphQLPayload } from './fake-server.ts';

export interface FixtureRequest extends FakeRequest {
  signal: AbortSignal | null;
}

function parse(input: RequestInfo | URL, init?: RequestInit): FixtureRequest {
  const url = new URL(String(input), 'http://localhost');
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
  const variables = url.searchParams.get('variables');
  return {
    name: url.searchParams.get('operationName') ?? String(body.operationName ?? ''),
    variables: (body.variables as Record<string, unknown>) ?? (variables ? JSON.parse(variables) : {}),
    headers: {},
    signal: init?.signal ?? null,
  };
}

/**
 * One component on the app's real urql client whose fetch answers from `handlers` by operation
 * name (a handler may return a promise the test settles later). Unknown operations fail.
 */
export function renderWithClient(ui: ReactNode, handlers: Record<string, FakeHandler>, path = '/me') {
  const requests: FixtureRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = parse(input, init);
    requests.push(request);
    const handler = handlers[request.name];
    const payload: GraphQLPayload | Response = handler
      ? await handler(request)
      : { data: null, errors: [{ message: `no fixture for ${request.name}` }] };
    if (payload instanceof Response) return payload;
    return new Response(JSON.stringify(payload), { headers: { 'content-type': 'application/json' } });
  };
  const client = createAppClient({ fetch, onUnauthenticated: () => {}, log: () => {} });
  const view = render(
    <UrqlProvider value={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </UrqlProvider>,
  );
  return { ...view, requests, calls: (name: string) => requests.filter((request) => request.name === name) };
}

/** A promise the test resolves when it chooses (a request still in flight until then). */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
