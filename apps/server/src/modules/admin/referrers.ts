// Referral campaigns (SPEC §2 Admin, §3 Referrer link, §5): created with a random code (the link
// is /signup/{code}), deleted by link or suffix (the code stays reserved, so its link says it
// was deleted), and looked up by the sign-up screen.
import { ADMIN_TEXT, AUDIT_ACTIONS, referrerCodeOf, referrerCreateSchema, referrerDeleteSchema } from '@router/shared';
import { randomCode } from '../../crypto/random.ts';
import { insertReferrer, markReferrerDeleted, type ReferrerRow } from '../../db/repositories/referrer.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../auth/caller.ts';
import { offeredProviders } from '../connectors/index.ts';
import { recordAudit } from './audit.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';
import { findReferrer } from './referral.ts';

/** Lower case without look-alikes (0/o, 1/l/i): a code read aloud or retyped survives. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CODE_LENGTH = 8;

const newCode = (): string => randomCode(ALPHABET, CODE_LENGTH);

export async function createReferrer(
  caller: AdminCaller,
  input: { name?: string | null; providerName?: string | null; credits: number },
): Promise<ReferrerRow> {
  const adminId = requireAdmin(caller);
  const { services } = caller;
  const { name, providerName, credits } = parseInput(referrerCreateSchema, input);
  if (providerName) requireOffered(services, providerName);
  return services.db.transaction(async (tx) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const referrer = await insertReferrer(tx, {
        code: newCode(),
        name: name ?? null,
        providerName: providerName ?? null,
        credits,
        createdBy: adminId,
      });
      if (!referrer) continue; // the code was taken: draw another
      await recordAudit(tx, {
        adminId,
        action: AUDIT_ACTIONS.referrerCreate,
        details: { code: referrer.code, name: referrer.name, providerName: referrer.providerName, credits },
      });
      return referrer;
    }
    throw new Error('no free referrer code after 5 draws');
  });
}

/** A campaign's brokerage is one users can connect here: not unknown, disabled or unavailable. */
function requireOffered(services: Services, providerName: string): void {
  const provider = offeredProviders(services).find((p) => p.name === providerName);
  if (!provider) throw new AppError('VALIDATION', ADMIN_TEXT.unknownBrokerage, { field: 'providerName' });
  if (provider.status === 'unavailable') {
    throw new AppError('VALIDATION', `${provider.title} cannot be connected on this server`, { field: 'providerName' });
  }
}

export async function deleteReferrer(caller: AdminCaller, referrerCodeOrUrl: string): Promise<boolean> {
  const adminId = requireAdmin(caller);
  const input = parseInput(referrerDeleteSchema, { referrerCodeOrUrl });
  return caller.services.db.transaction(async (tx) => {
    const referrer = await findReferrer(tx, input.referrerCodeOrUrl);
    if (!referrer) {
      throw new AppError('VALIDATION', ADMIN_TEXT.unknownReferrerLink, { field: 'referrerCodeOrUrl' });
    }
    if (!(await markReferrerDeleted(tx, referrer.id))) {
      throw new AppError('VALIDATION', ADMIN_TEXT.referrerAlreadyDeleted, { field: 'referrerCodeOrUrl' });
    }
    await recordAudit(tx, {
      adminId,
      action: AUDIT_ACTIONS.referrerDelete,
      details: { code: referrer.code, name: referrer.name, providerName: referrer.providerName },
    });
    return true;
  });
}

export interface ReferrerInfo {
  code: string;
  name: string | null;
  providerName: string | null;
  credits: number;
  isActive: boolean;
}

/** For the sign-up screen (public): the campaign of a code or link, deleted or not; null when not ours. */
export async function lookUpReferrer(services: Services, code: string): Promise<ReferrerInfo | null> {
  if (code.length > 2048 || !referrerCodeOf(code)) return null;
  const referrer = await findReferrer(services.db, code);
  if (!referrer) return null;
  return {
    code: referrer.code,
    name: referrer.name,
    providerName: referrer.providerName,
    credits: referrer.credits,
    isActive: referrer.deletedAt === null,
  };
}
