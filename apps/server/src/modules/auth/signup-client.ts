// Who made a sign-up, as far as an anonymous caller can be told apart: a keyed hash of the
// client's address (address-key.ts: an IPv6 /64 is one client), kept in the account's sign-up
// metadata. The card step right after sign-up (billing/signup-session.ts) serves only that client,
// so a stranger who knows the email can neither learn that it signed up, nor read or expire its
// open payment page, nor make sessions on its Stripe customer. No address is stored in clear.
import { createHmac } from 'node:crypto';
import { addressKey } from '../../address-key.ts';
import { deriveKey } from '../../crypto/derive.ts';
import type { Services } from '../../services.ts';

export function signupClient(services: Pick<Services, 'secretsKey'>, ip: string): string {
  return createHmac('sha256', deriveKey(services.secretsKey, 'signup-client'))
    .update(addressKey(ip))
    .digest('base64url');
}

/** True when the account's sign-up was made by this caller's address. */
export function isSignupClient(
  services: Pick<Services, 'secretsKey'>,
  ip: string,
  accountMetadata: Record<string, unknown> | undefined,
): boolean {
  const signup = accountMetadata?.signup as { client?: unknown } | undefined;
  return typeof signup?.client === 'string' && signup.client === signupClient(services, ip);
}
