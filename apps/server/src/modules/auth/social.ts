// Google and Apple ID tokens, verified with jose against the provider's JWKS: signature,
// issuer, audience (our client id) and expiry; the email must be verified by the provider.
import { errors, jwtVerify } from 'jose';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { SocialIssuer } from './runtime.ts';

const ISSUERS: Record<SocialIssuer, string[]> = {
  google: ['accounts.google.com', 'https://accounts.google.com'],
  apple: ['https://appleid.apple.com'],
};

export interface SocialIdentity {
  email: string;
  firstName?: string;
  lastName?: string;
}

export function socialClientId(services: Services, issuer: SocialIssuer): string | undefined {
  return issuer === 'google' ? services.config.GOOGLE_CLIENT_ID : services.config.APPLE_CLIENT_ID;
}

const invalid = () =>
  new AppError('VALIDATION', 'The sign-in token is not valid, please try again', { field: 'token' });

export async function verifySocialToken(services: Services, issuer: string, token: string): Promise<SocialIdentity> {
  if (issuer !== 'google' && issuer !== 'apple') {
    throw new AppError('VALIDATION', 'This sign-in provider is not supported', { field: 'issuer' });
  }
  const audience = socialClientId(services, issuer);
  if (!audience) throw new AppError('VALIDATION', `Sign-in with ${issuer} is not configured`, { field: 'issuer' });
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
  // Apple sends email_verified as the string "true".
  const verified = payload.email_verified === true || payload.email_verified === 'true';
  if (typeof payload.email !== 'string' || !verified) {
    throw new AppError('VALIDATION', 'Your email is not verified with this provider', { field: 'token' });
  }
  const name = (claim: unknown) => (typeof claim === 'string' && claim.trim() ? claim.trim().slice(0, 32) : undefined);
  return {
    email: payload.email.toLowerCase(),
    firstName: name(payload.given_name),
    lastName: name(payload.family_name),
  };
}
