// `adminAccountReward` (SPEC §2 Admin, Reward signals): one-time credits for a user, one ledger
// row ('reward') and the audit entry in one transaction. Without an idempotency key the ledger
// row references the audit entry (`audit:<id>`); with one it is `request:<key>` (the audit entry
// names the key), unique per cause, so a resubmission (an answer lost to the network, a double
// click) finds the first grant and answers as it did, granting nothing more.
import { ADMIN_TEXT, AUDIT_ACTIONS, adminRewardSchema } from '@router/shared';
import { findLedgerEntry, lockLedgerReference } from '../../db/repositories/credits.repository.ts';
import { AppError } from '../../errors.ts';
import { grantCredits } from '../accounts/credits.ts';
import { parseInput } from '../auth/caller.ts';
import { recordAudit } from './audit.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';
import { confirmedUserByEmail } from './target-user.ts';

export async function rewardCredits(
  caller: AdminCaller,
  input: { email: string; credits: number; idempotencyKey?: string | null },
): Promise<boolean> {
  const adminId = requireAdmin(caller);
  const { email, credits, idempotencyKey } = parseInput(adminRewardSchema, input);
  return caller.services.db.transaction(async (tx) => {
    const user = await confirmedUserByEmail(tx, email);
    if (!idempotencyKey) {
      const auditId = await recordAudit(tx, {
        adminId,
        targetId: user.id,
        action: AUDIT_ACTIONS.reward,
        details: { credits },
      });
      await grantCredits(tx, user.id, credits, 'reward', `audit:${auditId}`);
      return true;
    }
    const reference = `request:${idempotencyKey}`;
    // grantCredits reads the ledger after locking the account: of two submissions at once, the
    // second waits for the first and then finds its row. The key's own lock does the same for two
    // submissions of it for different users (whose accounts are different locks).
    await lockLedgerReference(tx, 'reward', reference);
    if (await grantCredits(tx, user.id, credits, 'reward', reference)) {
      await recordAudit(tx, {
        adminId,
        targetId: user.id,
        action: AUDIT_ACTIONS.reward,
        details: { credits, idempotencyKey },
      });
      return true;
    }
    const first = await findLedgerEntry(tx, 'reward', reference);
    if (first?.userId !== user.id || first.credits !== credits) {
      throw new AppError('VALIDATION', ADMIN_TEXT.rewardKeyReused, { field: 'idempotencyKey' });
    }
    return true;
  });
}
