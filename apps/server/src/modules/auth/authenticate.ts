// Resolves the caller of a request: `Authorization: Bearer <session or API token>`, then the
// admin proxy header `X-User: <email>` (administrators' sign-in sessions only, never an API token,
// and only once adminProxyStart recorded 'proxy on' for that user in that session; every request
// logged, every mutation also in the audit log: graphql/proxy-audit.ts).
// Second-factor (mfa) sessions are no viewer at all: they only complete `signin(type: "passcode")`.
// Unknown, expired or revoked tokens are anonymous, so protected fields answer UNAUTHENTICATED.
import { ADMIN_TEXT, GROUP } from '@router/shared';
import type { FastifyRequest } from 'fastify';
import { isProxyOpen } from '../../db/repositories/admin-audit.repository.ts';
import { findUserByEmail } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Authenticate } from '../../graphql/yoga.ts';
import type { Services } from '../../services.ts';
import { API_TOKEN_REFUSED } from './caller.ts';
import { resolveToken } from './sessions.ts';

export const PROXY_NOT_STARTED = 'Proxy mode is not on for this user: apply the user on the Admin screen first';

export const authenticate: Authenticate = async (services, req, bearer) => {
  const session = bearer ? await resolveToken(services, bearer) : null;
  // Only sign-in sessions and API tokens are viewers; mfa and one-time sign-in tokens are not.
  if (!session || (session.kind !== 'session' && session.kind !== 'api')) return null;
  const viewer: Viewer = {
    userId: session.userId,
    userKey: session.userKey,
    group: session.group,
    sessionId: session.id,
    ...(session.kind === 'api' ? { apiToken: true as const } : {}),
  };
  const header = req.headers['x-user'];
  const proxied = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!proxied) return viewer;
  // The proxy is the administrator's dashboard session, ending with it: an API token (in a script,
  // a CI secret) would make a leaked one the key to every user's account.
  if (viewer.apiToken) throw new AppError('FORBIDDEN', API_TOKEN_REFUSED);
  return proxyViewer(services, req, viewer, proxied);
};

async function proxyViewer(services: Services, req: FastifyRequest, admin: Viewer, email: string): Promise<Viewer> {
  if ((admin.group & GROUP.ADMIN) === 0) {
    throw new AppError('FORBIDDEN', 'Only administrators can act as another user');
  }
  const target = email.length <= 254 ? await findUserByEmail(services.db, email) : undefined;
  if (!target?.emailConfirmedAt) throw new AppError('FORBIDDEN', ADMIN_TEXT.notActivated);
  // Acting as a user is started explicitly (adminProxyStart records 'proxy on' for this session)
  // and ends with 'proxy off': a header alone would act as anyone, with no record it began.
  const open = await isProxyOpen(services.db, {
    adminId: admin.userId,
    targetId: target.id,
    sessionId: admin.sessionId,
  });
  if (!open) throw new AppError('FORBIDDEN', PROXY_NOT_STARTED);
  services.log.info(
    { adminId: admin.userId, userId: target.id, operation: operationOf(req), requestId: req.id },
    'admin proxy request',
  );
  return {
    userId: target.id,
    userKey: target.key,
    group: target.group,
    sessionId: admin.sessionId,
    proxiedBy: admin.userId,
  };
}

/** The GraphQL operation name, else the first field of the document (for the proxy log). */
function operationOf(req: FastifyRequest): string {
  const source = (req.method === 'GET' ? req.query : req.body) as
    | { operationName?: unknown; query?: unknown }
    | null
    | undefined;
  if (typeof source?.operationName === 'string' && source.operationName) return source.operationName.slice(0, 100);
  const query = typeof source?.query === 'string' ? source.query : '';
  return /{\s*([A-Za-z_]\w*)/.exec(query)?.[1] ?? 'unknown';
}
