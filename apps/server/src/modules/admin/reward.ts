// `adminAccountReward` (SPEC §2 Admin, Reward signals): one-time credits for a user, one ledger
// row ('reward', referenced by the audit entry) and the audit entry in one transaction.
import { AUDIT_ACTIONS, adminRewardSchema } from '@router/shared';
import { grantCredits } from '../accounts/credits.ts';
import { parseInput } from '../auth/caller.ts';
import { recordAudit } from './audit.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';
import { confirmedUserByEmail } from './target-user.ts';

export async function rewardCredits(caller: AdminCaller, input: { email: string; credits: number }): Promise<boolean> {
  const adminId = requireAdmin(caller);
  const { email, credits } = parseInput(adminRewardSchema, input);
  return caller.services.db.transaction(async (tx) => {
    const user = await confirmedUserByEmail(tx, email);
    const auditId = await recordAudit(tx, {
      adminId,
      targetId: user.id,
      action: AUDIT_ACTIONS.reward,
      details: { credits },
    });
    await grantCredits(tx, user.id, credits, 'reward', `audit:${auditId}`);
    return true;
  });
}
