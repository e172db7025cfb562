import { errorMessage } from '../../lib/error-message.ts';
import { unreachableMessage } from '../../lib/unreachable.ts';

// SPEC §8 texts of the identity screens, word for word.
export const AUTH_TEXT = {
  signinFailed: "We can't sign you in with these credentials",
  signupFailed: "We can't sign you up with these credentials",
  passcodeInvalid: 'The verification code is not valid',
  resetFailed: "We can't process the request with these credentials",
  resetRequested: 'You will be sent an email with a password reset link, if the provided information is correct',
  confirmFailed: 'Error, confirmation link expired or incorrect',
  confirmed: 'You have successfully confirmed your email, you can log in now.',
  signupThanks: 'Thank you for the registration. Please check for the confirmation email to continue.',
  passcodeHint: 'Leave blank, if not set',
} as const;

/**
 * The server's message when the server answered (a GraphQL error), the shared sentence when it
 * did not (lib/unreachable.ts: not 'these credentials', which were never checked), else `fallback`.
 */
export function serverMessage(error: unknown, fallback: string): string {
  const unreachable = unreachableMessage(error);
  if (unreachable) return unreachable;
  if (typeof error !== 'object' || error === null) return fallback;
  const { extensions } = error as { extensions?: unknown };
  if (typeof extensions !== 'object' || extensions === null) return fallback;
  const message = errorMessage(error, fallback);
  return message === 'Error' ? fallback : message;
}
