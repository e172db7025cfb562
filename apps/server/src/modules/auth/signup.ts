// `signup` (SPEC §3 Signup payload): type 'password' sends a confirmation link (a taken address
// answers the same and its owner gets a notice: tellOwner); type 'token'
// (Google/Apple) creates a confirmed account. A referrer code names a campaign of ours (its
// credits come with the confirmed email); who becomes administrator: modules/admin/administrators.ts.
import { GROUP, nameSchema, providedName, signupCredentialsSchema, socialCredentialsSchema } from '@router/shared';
import { addressKey } from '../../address-key.ts';
import { newKey } from '../../crypto/random.ts';
import type { ReferrerRow } from '../../db/repositories/referrer.repository.ts';
import {
  createUserWithAccount,
  findUserByEmail,
  type NewUser,
  type UserRow,
  updateUser,
} from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { grantCredits } from '../accounts/credits.ts';
import { wouldAdminister } from '../admin/administrators.ts';
import { onEmailConfirmed } from '../admin/confirmed.ts';
import { rememberReferral, signupReferrer } from '../admin/referral.ts';
import { type Caller, parseInput } from './caller.ts';
import { revokeUnprovenAccess, UNPROVEN_FACTOR } from './claim.ts';
import { sendConfirmation, sendSignupTaken } from './email-links.ts';
import { assertStrongPassword, hashPassword } from './password.ts';
import { RULES } from './rate-limit.ts';
import type { SocialIssuer } from './runtime.ts';
import { signupClient } from './signup-client.ts';
import { verifySocialToken } from './social.ts';

export const EMAIL_TAKEN = 'This email is already registered';

export interface SignupInput {
  type: string;
  credentials?: unknown;
  firstName?: string | null;
  lastName?: string | null;
  referrerCode?: string | null;
  promotionCode?: string | null;
  stripePriceId?: string | null;
}

/**
 * Sign-up codes are kept on the account until billing and referrals use them (creditsTotal: the
 * grants), with the client that signed up (signup-client.ts).
 */
function signupMetadata(input: SignupInput, client: string): Record<string, unknown> {
  const codes = (input.promotionCode ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .slice(0, 10);
  const signup: Record<string, unknown> = { client };
  if (input.referrerCode) signup.referrerCode = input.referrerCode.slice(0, 64);
  if (codes.length) signup.promotionCodes = codes.map((c) => c.slice(0, 64));
  if (input.stripePriceId) signup.stripePriceId = input.stripePriceId.slice(0, 128);
  return { signup };
}

/**
 * The user, its account, the sign-up grant (SIGNAL_CREDITS) and its campaign in one transaction;
 * a user created confirmed (social) gets what a confirmed email brings at once. Null: email taken.
 */
export function createWithCredits(
  services: Services,
  user: NewUser,
  referrer: ReferrerRow | null = null,
): Promise<UserRow | null> {
  return services.db.transaction(async (tx) => {
    const created = await createUserWithAccount(tx, user);
    if (!created) return null;
    const credits = services.config.SIGNAL_CREDITS.signupCredits;
    if (credits > 0) await grantCredits(tx, created.id, credits, 'signup');
    await rememberReferral(tx, created.id, referrer);
    return created.emailConfirmedAt ? onEmailConfirmed(tx, services, created) : created;
  });
}

/** SPEC §3 Signup result (the same fields whether the address was new or not). */
export type SignupResult = Pick<UserRow, 'key' | 'group' | 'email' | 'firstName' | 'lastName'>;

export async function signup(caller: Caller, input: SignupInput): Promise<SignupResult> {
  const { services, ip } = caller;
  await services.identity.limiter.enforce(`signup:${addressKey(ip)}`, RULES.signup);
  const referrer = await signupReferrer(services.db, input.referrerCode);
  if (input.type === 'token') {
    // The names Apple gave the browser, not typed here: cut to 32 as the token's own, never refused.
    const firstName = providedName(input.firstName);
    const lastName = providedName(input.lastName);
    // The nonce is checked, not spent: the sign-in that follows a token sign-up (SPEC §4) spends it.
    const { issuer, token, nonce } = parseInput(socialCredentialsSchema, input.credentials, 'credentials');
    const identity = await verifySocialToken(services, issuer, token, nonce);
    return findOrCreateSocialUser(services, {
      email: identity.email,
      vouched: identity.vouched,
      issuer: identity.issuer,
      firstName: firstName ?? identity.firstName,
      lastName: lastName ?? identity.lastName,
      accountMetadata: signupMetadata(input, signupClient(services, ip)),
      referrer,
    });
  }
  if (input.type !== 'password') throw new AppError('VALIDATION', 'Unknown sign-up type', { field: 'type' });
  const firstName = parseInput(nameSchema, input.firstName ?? undefined, 'firstName') ?? null;
  const lastName = parseInput(nameSchema, input.lastName ?? undefined, 'lastName') ?? null;
  const { email, password } = parseInput(signupCredentialsSchema, input.credentials, 'credentials');
  await assertStrongPassword(password);
  // Hashed whether the email is taken or not: the answer takes as long either way.
  const passwordHash = await hashPassword(password);
  const answer: SignupResult = {
    key: newKey(),
    email: email.toLowerCase(),
    firstName,
    lastName,
    group: GROUP.CUSTOMER,
  };
  const existing = await findUserByEmail(services.db, email);
  // The unique index decides races: null is taken too.
  const user = existing
    ? null
    : await createWithCredits(
        services,
        {
          ...answer,
          passwordHash,
          emailConfirmedAt: null,
          accountMetadata: signupMetadata(input, signupClient(services, ip)),
        },
        referrer,
      );
  if (!user) {
    await tellOwner(services, existing ?? (await findUserByEmail(services.db, email)));
    return answer;
  }
  await sendConfirmation(services, user);
  return user;
}

/**
 * A password sign-up with a registered address answers as for a new one, so that sign-up cannot
 * tell anyone who has an account; the address's owner is told by mail instead (a confirmation
 * link again while the account is unconfirmed). Nothing of the account changes. At most one such
 * mail of each kind per account in 5 minutes (a confirmation link shares sign-in's resend): no
 * mail bombing through sign-up.
 */
export async function tellOwner(services: Services, owner: UserRow | undefined): Promise<void> {
  if (!owner) return;
  const confirmed = owner.emailConfirmedAt !== null;
  const key = `${confirmed ? 'signup-taken' : 'confirmation'}:${owner.id}`;
  if (!(await services.identity.limiter.take(key, RULES.confirmationResend))) return;
  await (confirmed ? sendSignupTaken(services, owner) : sendConfirmation(services, owner));
}

/** The answer to an identity its provider does not vouch for (SocialIdentity.vouched). */
export function notVouched(issuer: SocialIssuer | undefined, signup: boolean): string {
  const provider = issuer === 'apple' ? 'Apple' : 'Google';
  return signup
    ? `${provider} does not vouch for this email address: sign up with your email and password`
    : `${provider} does not vouch for this email address: sign in with your email and password (or reset the password)`;
}
export const NOT_VOUCHED = notVouched('google', false);
export const NOT_VOUCHED_SIGNUP = notVouched('google', true);

/**
 * The provider verified the email: an existing account is signed in (and confirmed), else created.
 * An account with a password, or not yet confirmed, is entered only with an identity the provider
 * vouches for (SocialIdentity.vouched): a Google account made once with a work address would
 * otherwise open the account of that address's owner today. Nor does such an identity enter an
 * administrator's account or make one (an ADMIN_EMAILS address, or the installation's first).
 */
export async function findOrCreateSocialUser(
  services: Services,
  identity: {
    email: string;
    /** false: the provider is not authoritative for the address (see SocialIdentity). */
    vouched?: boolean;
    issuer?: SocialIssuer;
    firstName?: string;
    lastName?: string;
    accountMetadata?: Record<string, unknown>;
    /** Only for a new account (an existing one keeps how it came). */
    referrer?: ReferrerRow | null;
  },
): Promise<UserRow> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await findUserByEmail(services.db, identity.email);
    if (existing) {
      const administrator = (existing.group & GROUP.ADMIN) !== 0;
      if (identity.vouched === false && (existing.passwordHash || !existing.emailConfirmedAt || administrator)) {
        throw new AppError('FORBIDDEN', notVouched(identity.issuer, false));
      }
      if (existing.emailConfirmedAt) return existing;
      return confirmBySocialSignin(services, existing);
    }
    // An administrator's mailbox is proven by our link, not by a Google account made with it once.
    if (identity.vouched === false && (await wouldAdminister(services, identity.email))) {
      throw new AppError('FORBIDDEN', notVouched(identity.issuer, true));
    }
    const created = await createWithCredits(
      services,
      {
        key: newKey(),
        email: identity.email,
        firstName: identity.firstName ?? null,
        lastName: identity.lastName ?? null,
        passwordHash: null,
        emailConfirmedAt: new Date(),
        group: GROUP.CUSTOMER,
        accountMetadata: identity.accountMetadata ?? {},
      },
      identity.referrer ?? null,
    );
    if (created) return created;
    // A concurrent sign-in created it first: read it on the next turn.
  }
  throw new AppError('INTERNAL', 'Could not create the account');
}

/** An unconfirmed account signing in with a provider that verified the email. */
async function confirmBySocialSignin(services: Services, user: UserRow): Promise<UserRow> {
  // The provider proved the email; a password set before that proof is nobody's to keep.
  await revokeUnprovenAccess(services, user);
  return services.db.transaction(async (tx) => {
    const claimed = await updateUser(tx, user.id, {
      emailConfirmedAt: new Date(),
      passwordHash: null,
      ...UNPROVEN_FACTOR,
    });
    return claimed ? onEmailConfirmed(tx, services, claimed) : user;
  });
}
