import { errorMessage } from '../../lib/error-message.ts';

/** SPEC §8: an invalid code reads 'The verification code is not valid'; other server messages as sent. */
export const PASSCODE_INVALID = 'The verification code is not valid';

export function passcodeError(error: unknown): string {
  const graphQL = error as { message?: unknown; extensions?: unknown } | null;
  if (graphQL && typeof graphQL.extensions === 'object' && typeof graphQL.message === 'string' && graphQL.message) {
    return graphQL.message;
  }
  // No answer from the server (offline, a timeout): the code was never checked, so not 'not valid'.
  if (error instanceof Error) return errorMessage(error);
  return PASSCODE_INVALID;
}
