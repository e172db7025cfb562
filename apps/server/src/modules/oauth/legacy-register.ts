// POST /api/oauth/legacy-register (SPEC §7 REST): the legacy consent screen's 'Create an
// account as <email>'. Only inside a live authorization of a registered application in this
// browser, and only for the email that application named (login_hint). The account starts
// unconfirmed with no password and a confirmation mail goes out; the answer is a one-time
// sign-in token (10 minutes) that the web app exchanges at /signin (`#access_token=`), where it
// asks for the confirmation first: the confirmation link signs in (SPEC §4). A registered email
// answers the same (its owner is mailed instead, as sign-up does: tellOwner), so this tells
// nobody who has an account; nobody is signed in before the email is proven either.
import { emailSchema, GROUP, providedName } from '@router/shared';
import { z } from 'zod';
import { addressKey } from '../../address-key.ts';
import { newKey } from '../../crypto/random.ts';
import { findUserByEmail } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../auth/caller.ts';
import { sendConfirmation } from '../auth/email-links.ts';
import { RULES } from '../auth/rate-limit.ts';
import { issueSession } from '../auth/sessions.ts';
import { createWithCredits, tellOwner } from '../auth/signup.ts';
import { liveInteraction, type RawExchange } from './interaction.ts';

/** The consent screen's query parameters; others are ignored. */
const legacyRegisterSchema = z.object({
  uid: z.string({ error: 'uid: Required' }).min(1, 'uid: Required').max(100),
  client_id: z.string().max(100).optional(),
  email: emailSchema,
  // The application's words, not the user's typing: a name too long is cut, never a refusal.
  first_name: z.unknown().transform(providedName).optional(),
  last_name: z.unknown().transform(providedName).optional(),
});

export const EMAIL_NOT_NAMED = 'This is not the email the application asked for';

export async function legacyRegister(
  services: Services,
  raw: RawExchange,
  ip: string,
  body: unknown,
): Promise<{ token: string }> {
  await services.identity.limiter.enforce(`signup:${addressKey(ip)}`, RULES.signup);
  const input = parseInput(legacyRegisterSchema, body);
  const interaction = await liveInteraction(services, raw, input.uid, input.client_id);
  const hint = interaction.params.login_hint;
  const email = input.email.toLowerCase();
  if (typeof hint !== 'string' || hint.trim().toLowerCase() !== email) {
    throw new AppError('VALIDATION', EMAIL_NOT_NAMED, { field: 'email' });
  }
  const clientId = String(interaction.params.client_id);
  const existing = await findUserByEmail(services.db, email);
  const created = existing
    ? null
    : await createWithCredits(services, {
        key: newKey(),
        email,
        firstName: input.first_name ?? null,
        lastName: input.last_name ?? null,
        passwordHash: null,
        emailConfirmedAt: null,
        group: GROUP.CUSTOMER,
        accountMetadata: { signup: { partner: clientId } },
      });
  // The unique index decides races: null is taken too.
  const user = created ?? existing ?? (await findUserByEmail(services.db, email));
  if (!user) throw new AppError('INTERNAL', 'Could not create the account');
  if (created) await sendConfirmation(services, created);
  else await tellOwner(services, user);
  // Its exchange signs nobody in (signin.ts oneTimeSignin), whoever's address it names.
  const { token } = await issueSession(services, user.id, 'signin', {
    address: ip,
    metadata: { method: 'partner', clientId },
  });
  return { token };
}
