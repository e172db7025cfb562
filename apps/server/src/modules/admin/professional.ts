// `adminUserProfessional` (beyond SPEC, issue 15): grants or removes professional status (group
// bit 16), which a server without card payments needs for the developer Applications section.
// A removal also ends what the user pays for the status: their plans that sell it are set to
// cancel at the end of the period paid (billing/professional-removal.ts), first, so a Stripe that
// cannot be reached leaves the status as it was.
import { AUDIT_ACTIONS, adminEmailSchema, GROUP } from '@router/shared';
import { z } from 'zod';
import { adminGrantsProfessional } from '../../db/repositories/admin-audit.repository.ts';
import { changeGroup } from '../../db/repositories/administrators.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import { parseInput } from '../auth/caller.ts';
import { userSessionsChanged } from '../auth/session-changes.ts';
import { endProfessionalPlans } from '../billing/professional-removal.ts';
import { recordAudit } from './audit.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';
import { confirmedUserByEmail } from './target-user.ts';

const professionalSchema = z.object({ email: adminEmailSchema, isProfessional: z.boolean() });

export async function setProfessional(
  caller: AdminCaller,
  input: { email: string; isProfessional: boolean },
): Promise<UserRow> {
  const adminId = requireAdmin(caller);
  const { email, isProfessional } = parseInput(professionalSchema, input);
  const { services } = caller;
  if (!isProfessional) await endProfessionalPlans(services, (await confirmedUserByEmail(services.db, email)).id);
  const { user, changed } = await services.db.transaction(async (tx) => {
    const target = await confirmedUserByEmail(tx, email);
    const change = isProfessional ? { add: GROUP.PROFESSIONAL } : { remove: GROUP.PROFESSIONAL };
    const group = (await changeGroup(tx, target.id, change)) ?? target.group;
    // The log records changes only, or it would show a status given or taken that was not. A
    // grant is a source of the status of its own (it outlasts a plan or a payment that also
    // gives it), so a grant to someone who holds the status only as paid for is one.
    const granted = await adminGrantsProfessional(tx, target.id);
    if (group === target.group && granted === isProfessional) return { user: target, changed: false };
    await recordAudit(tx, {
      adminId,
      targetId: target.id,
      action: isProfessional ? AUDIT_ACTIONS.professionalGrant : AUDIT_ACTIONS.professionalRemove,
      details: { group },
    });
    return { user: { ...target, group }, changed: group !== target.group };
  });
  if (changed) await userSessionsChanged(services, user.id);
  return user;
}
