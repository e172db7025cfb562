// `signout` ends the sign-in (or second-factor) session the request came with, and answers
// true even when it had already ended. API tokens are not ended by it: `userTokenDelete` does.
// In proxy mode the administrator's own session ends.
import type { Caller } from './caller.ts';
import { resolveToken, revokeOne } from './sessions.ts';

export async function signout(caller: Caller): Promise<boolean> {
  const session = caller.bearer ? await resolveToken(caller.services, caller.bearer) : null;
  if (session && session.kind !== 'api') await revokeOne(caller.services, session.id);
  return true;
}
