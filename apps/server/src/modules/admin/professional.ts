// `adminUserProfessional` (beyond SPEC, issue 15): grants or removes professional status (group
// bit 16), which a server without card payments needs for the developer Applications section.
import { AUDIT_ACTIONS, adminEmailSchema, GROUP } from '@router/shared';
import { z } from 'zod';
import { changeGroup } from '../../db/repositories/administrators.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import { parseInput } from '../auth/caller.ts';
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
  const { user, changed } = await services.db.transaction(async (tx) => {
    const target = await confirmedUserByEmail(tx, email);
    const change = isProfessional ? { add: GROUP.PROFESSIONAL } : { remove: GROUP.PROFESSIONAL };
    const group = (await changeGroup(tx, target.id, change)) ?? target.group;
    // A grant to a professional, or a removal from someone without the status, changes nothing:
    // the log records changes only, or it would show a status given or taken that was not.
    if (group === target.group) return { user: target, changed: false };
    await recordAudit(tx, {
      adminId,
      targetId: target.id,
      action: isProfessional ? AUDIT_ACTIONS.professionalGrant : AUDIT_ACTIONS.professionalRemove,
      details: { group },
    });
    return { user: { ...target, group }, changed: true };
  });
  if (changed) services.identity.sessions.evictUser(user.id);
  return user;
}
