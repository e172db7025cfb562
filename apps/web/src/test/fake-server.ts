import { vi } from 'vitest';

export interface FakeUser {
  key: string;
  group: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  reamazeAuthKey: string | null;
}

export const fakeUser = (group: number): FakeUser => ({
  key: 'user-1',
  group,
  email: 'jo@example.com',
  firstName: 'Jo',
  lastName: null,
  reamazeAuthKey: null,
});

export const PROVIDERS_JSON = JSON.stringify([
  { name: 'paper', title: 'Paper trading', status: 'active', authentication: { type: 'credentials', credentials: [] } },
]);

/** A GraphQL endpoint answering the queries the shell sends: User and Providers. */
export function fakeGraphQL(options: { user?: FakeUser | null } = {}) {
  const operations: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { operationName?: string }) : {};
    const name = url.searchParams.get('operationName') ?? body.operationName ?? '';
    operations.push(name);
    const payload =
      name === 'Providers'
        ? { data: { providers: PROVIDERS_JSON } }
        : name === 'User' && options.user
          ? { data: { user: options.user } }
          : { data: null, errors: [{ message: 'Sign in first', extensions: { code: 'UNAUTHENTICATED' } }] };
    return new Response(JSON.stringify(payload), { headers: { 'content-type': 'application/json' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, operations };
}
