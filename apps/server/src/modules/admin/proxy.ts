// Proxy mode (SPEC §2 Admin, §6): the web app keeps the proxied email (session storage) and sends
// it as X-User. Applying it asks the server first, which checks the user and records 'proxy on'
// (X-User is honoured only after it, in the same sign-in session); the reset records 'proxy off'
// and tells session_changed, so a live stream acting as the user ends at once.
// Requests while proxied: modules/auth/authenticate.ts.
import { AUDIT_ACTIONS, adminProxySchema } from '@router/shared';
import { openProxyTargets } from '../../db/repositories/admin-audit.repository.ts';
import { findUserByEmail } from '../../db/repositories/user.repository.ts';
import { parseInput } from '../auth/caller.ts';
import { userSessionsChanged } from '../auth/session-changes.ts';
import { recordAudit } from './audit.ts';
import { type AdminCaller, requireAdmin } from './guard.ts';
import { confirmedUserByEmail } from './target-user.ts';

/** The email to send as X-User; 'User not registered or not activated' for anyone else. */
export async function startProxy(caller: AdminCaller, email: string): Promise<string> {
  const adminId = requireAdmin(caller);
  const input = parseInput(adminProxySchema, { email });
  const target = await confirmedUserByEmail(caller.services.db, input.email);
  const current = caller.viewer?.proxiedBy !== undefined ? caller.viewer.userId : undefined;
  await caller.services.db.transaction(async (tx) => {
    // Applying another user while proxied (X-User: the first) ends the first user's proxy: its
    // 'proxy off' is recorded, or the log would show it never ended.
    if (current !== undefined && current !== target.id) {
      await recordAudit(tx, { adminId, targetId: current, action: AUDIT_ACTIONS.proxyOff });
      await userSessionsChanged(caller.services, current, tx);
    }
    // The sign-in session it is started in: X-User is honoured there only (auth/authenticate.ts).
    const session = caller.viewer?.sessionId;
    await recordAudit(tx, { adminId, targetId: target.id, action: AUDIT_ACTIONS.proxyOn, details: { session } });
  });
  return target.email;
}

/**
 * Records the end of proxy mode: for the user named, and for every user the administrator still
 * acts as in this sign-in session. The email the admin screen kept may no longer name the user
 * (they changed it meanwhile): a 'proxy off' naming nobody would leave their proxy open, X-User
 * with their new address still honoured, and the log showing it never ended.
 */
export async function endProxy(caller: AdminCaller, email: string): Promise<boolean> {
  const adminId = requireAdmin(caller);
  const input = parseInput(adminProxySchema, { email });
  const { db } = caller.services;
  const target = await findUserByEmail(db, input.email);
  const sessionId = caller.viewer?.sessionId;
  const open = sessionId === undefined ? [] : await openProxyTargets(db, { adminId, sessionId });
  await db.transaction(async (tx) => {
    for (const targetId of open.filter((id) => id !== target?.id)) {
      await recordAudit(tx, { adminId, targetId, action: AUDIT_ACTIONS.proxyOff });
    }
    await recordAudit(tx, {
      adminId,
      targetId: target?.id ?? null,
      targetEmail: input.email,
      action: AUDIT_ACTIONS.proxyOff,
    });
    // The administrator's live streams as these users end at once (session_changed), event or not.
    const ended = new Set([...open, ...(target ? [target.id] : [])]);
    for (const userId of ended) await userSessionsChanged(caller.services, userId, tx);
  });
  return true;
}
