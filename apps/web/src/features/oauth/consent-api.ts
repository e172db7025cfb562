// The consent screens' REST calls (SPEC §7 REST). Same-origin fetches: the browser sends the
// provider's interaction cookie (path /api/oauth) that ties the request to this browser.
import type { ConsentDetails } from '@router/shared';
import { reachingFetch } from '../../lib/unreachable.ts';

/** fetch with the server not answering said as every screen says it (lib/unreachable.ts). */
const send = reachingFetch();

export const AUTHORIZE_PATH = '/api/oauth/authorize';

/** The server's `{message}` of a failed answer, else 'Error' (SPEC §8 "message or 'Error'"). */
async function failure(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  return new Error(typeof body?.message === 'string' && body.message ? body.message : 'Error');
}

export async function fetchConsentDetails(uid: string, sessionToken: string | null): Promise<ConsentDetails> {
  const response = await send(`/api/oauth/interaction?${new URLSearchParams({ uid })}`, {
    headers: sessionToken ? { authorization: `Bearer ${sessionToken}` } : {},
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as ConsentDetails;
}

/** POST /api/oauth/legacy-register with the query's parameters: a one-time sign-in token. */
export async function legacyRegister(query: URLSearchParams): Promise<string> {
  const response = await send('/api/oauth/legacy-register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Object.fromEntries(query)),
  });
  if (!response.ok) throw await failure(response);
  const { token } = (await response.json()) as { token?: unknown };
  if (typeof token !== 'string' || !token) throw new Error('Error');
  return token;
}
