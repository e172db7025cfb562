// Google and Apple ID tokens, verified with jose against the provider's JWKS: signature,
// issuer, audience (our client id) and expiry; the email must be verified by the provider. The
// token must carry the nonce the browser asked for (the SHA-256 of a random value only that
// browser holds and sends along), and a sign-in spends it: a captured ID token alone, or a
// captured sign-in request sent again, signs nobody in.
import { createHash, timingSafeEqual } from 'node:crypto';
import { providedName } from '@router/shared';
import { errors, jwtVerify } from 'jose';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { RULES } from './rate-limit.ts';
import type { SocialIssuer } from './runtime.ts';

const ISSUERS: Record<SocialIssuer, string[]> = {
  google: ['accounts.google.com', 'https://accounts.google.com'],
  apple: ['https://appleid.apple.com'],
};

export interface SocialIdentity {
  email: string;
  firstName?: string;
  lastName?: string;
  /** The token's nonce claim (the hash of the browser's value), spent by a sign-in. */
  nonce: string;
  /**
   * Whether the provider is authoritative for the address, not only verified it once: Google is
   * for Gmail and for a Workspace account (`hd`); Apple for its own mailboxes (iCloud and the
   * private relay). Any other address on such an account was proven when the account was made
   * and may have changed hands since (a former employee's work address).
   */
  vouched: boolean;
  /** The provider, named in the answer when it does not vouch (signup.ts notVouched). */
  issuer: SocialIssuer;
}

const GMAIL = /@(gmail|googlemail)\.com$/;
const APPLE_MAIL = /@(icloud\.com|me\.com|mac\.com|privaterelay\.appleid\.com)$/;

/** What the browser gives Google or Apple as the nonce for its random value: SHA-256, hex. */
export function socialNonceHash(nonce: string): string {
  return createHash('sha256').update(nonce).digest('hex');
}

export const NONCE_MISSING = 'This sign-in is not bound to your browser: reload the page and try again';
export const NONCE_SPENT = 'This sign-in was already used: please sign in again';

export function socialClientId(services: Services, issuer: SocialIssuer): string | undefined {
  return issuer === 'google' ? services.config.GOOGLE_CLIENT_ID : services.config.APPLE_CLIENT_ID;
}

const invalid = () =>
  new AppError('VALIDATION', 'The sign-in token is not valid, please try again', { field: 'token' });

export async function verifySocialToken(
  services: Services,
  issuer: string,
  token: string,
  nonce: string | undefined,
): Promise<SocialIdentity> {
  if (issuer !== 'google' && issuer !== 'apple') {
    throw new AppError('VALIDATION', 'This sign-in provider is not supported', { field: 'issuer' });
  }
  const audience = socialClientId(services, issuer);
  if (!audience) throw new AppError('VALIDATION', `Sign-in with ${issuer} is not configured`, { field: 'issuer' });
  if (!nonce) throw new AppError('VALIDATION', NONCE_MISSING, { field: 'nonce' });
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, services.identity.jwks(issuer), {
      issuer: ISSUERS[issuer],
      audience,
      algorithms: ['RS256', 'ES256'],
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (err) {
    if (err instanceof errors.JOSEError) {
      services.log.info({ issuer, reason: err.code }, 'social sign-in token refused');
      throw invalid();
    }
    throw err;
  }
  if (!sameText(payload.nonce, socialNonceHash(nonce))) {
    services.log.info({ issuer, reason: 'nonce' }, 'social sign-in token refused');
    throw invalid();
  }
  // Apple sends email_verified as the string "true".
  const verified = payload.email_verified === true || payload.email_verified === 'true';
  if (typeof payload.email !== 'string' || !verified) {
    throw new AppError('VALIDATION', 'Your email is not verified with this provider', { field: 'token' });
  }
  const email = payload.email.toLowerCase();
  return {
    email,
    firstName: providedName(payload.given_name),
    lastName: providedName(payload.family_name),
    nonce: payload.nonce as string,
    vouched: issuer === 'apple' ? APPLE_MAIL.test(email) : GMAIL.test(email) || typeof payload.hd === 'string',
    issuer,
  };
}

/** Spends the token's nonce: the first sign-in with it passes, any later one is refused. */
export async function spendSocialNonce(services: Services, identity: SocialIdentity): Promise<void> {
  if (!(await services.identity.limiter.take(`social-nonce:${identity.nonce}`, RULES.socialNonce))) {
    throw new AppError('VALIDATION', NONCE_SPENT, { field: 'token' });
  }
}

function sameText(claim: unknown, expected: string): boolean {
  if (typeof claim !== 'string' || claim.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(claim), Buffer.from(expected));
}
