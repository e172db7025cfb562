// The consent screens' server side (SPEC §2 "Authorization consent screens", §7 REST). The
// provider sends the browser to /signin/oauth or /signin/partner with the interaction's uid and
// a signed cookie (path /api/oauth) naming it; the screen asks for the details, and the user's
// 'Grant access' posts the form to /api/oauth/authorize with their session token
// (`access_token`) and the consent token of the details (`token`). Only then does the provider
// learn who the user is and what they granted.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ConsentDetails, GROUP, scopeDescription } from '@router/shared';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { deriveKey } from '../../crypto/derive.ts';
import { isProxyOpen } from '../../db/repositories/admin-audit.repository.ts';
import { findUserGrantId } from '../../db/repositories/oidc.repository.ts';
import { findUserById } from '../../db/repositories/user.repository.ts';
import { findUserAppByKey } from '../../db/repositories/user-app.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { resolveToken } from '../auth/sessions.ts';
import { oauthProvider, SCOPES } from './provider.ts';

export interface RawExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

export const INTERACTION_EXPIRED = 'This authorization request has expired. Please start again from the application.';
export const CONSENT_WHILE_PROXIED =
  'You are acting as another user: an application cannot be granted access in proxy mode. Reset proxy mode on the Admin screen (or sign in again) first.';

async function interactionOf(provider: Provider, raw: RawExchange, uid: string) {
  const interaction = await provider.interactionDetails(raw.req, raw.res).catch(() => null);
  if (!interaction || !uid || interaction.uid !== uid) throw new AppError('VALIDATION', INTERACTION_EXPIRED);
  return interaction;
}

/** The requested scopes this provider knows, in the order of SCOPES. */
function requestedScopes(params: Record<string, unknown>): string[] {
  const asked = new Set(String(params.scope ?? '').split(' '));
  return SCOPES.filter((scope) => asked.has(scope));
}

function consentToken(services: Services, uid: string, userKey: string): string {
  return createHmac('sha256', deriveKey(services.secretsKey, 'oauth-consent'))
    .update(`${uid}:${userKey}`)
    .digest('base64url');
}

/**
 * The signed-in user behind a web session token (not an API token: granting is a person's act).
 * An administrator's session acting as another user (adminProxyStart) grants nothing: the consent
 * form carries the administrator's own session, so the grant would be theirs, not the user's
 * shown on the screen, and a grant made for the user would outlive the proxy.
 */
async function sessionUser(services: Services, ip: string, token: string | null | undefined) {
  // Tokens that resolve to nothing are limited per address, as at /graphql and /api/v1.
  const session = token
    ? await services.identity.failedAuth.resolve(ip, token, () => resolveToken(services, token), Boolean)
    : null;
  if (session?.kind !== 'session') return null;
  if (
    (session.group & GROUP.ADMIN) !== 0 &&
    (await isProxyOpen(services.db, { adminId: session.userId, sessionId: session.id }))
  ) {
    throw new AppError('FORBIDDEN', CONSENT_WHILE_PROXIED);
  }
  return findUserById(services.db, session.userId);
}

export async function consentDetails(
  services: Services,
  raw: RawExchange,
  uid: string,
  bearer: string | null,
  ip: string,
): Promise<ConsentDetails> {
  const provider = await oauthProvider(services);
  const interaction = await interactionOf(provider, raw, uid);
  const app = await findUserAppByKey(services.db, String(interaction.params.client_id ?? ''));
  if (!app) throw new AppError('VALIDATION', INTERACTION_EXPIRED);
  const user = await sessionUser(services, ip, bearer);
  const hint = interaction.params.login_hint;
  return {
    uid: interaction.uid,
    client: { key: app.key, name: app.name, description: app.description },
    scopes: requestedScopes(interaction.params)
      .filter((scope) => scope !== 'offline_access')
      .map((name) => ({ name, description: scopeDescription(name) ?? name })),
    email: typeof hint === 'string' && hint ? hint : null,
    token: user ? consentToken(services, interaction.uid, user.key) : null,
  };
}

export interface ConsentInput {
  uid: string;
  ip: string;
  clientId?: string;
  accessToken?: string;
  token?: string;
  deny: boolean;
}

/**
 * Records the user's answer and returns where the browser goes next (the provider's resume
 * URL, which answers the application's redirect URI with a code or `access_denied`).
 */
export async function completeConsent(services: Services, raw: RawExchange, input: ConsentInput): Promise<string> {
  const provider = await oauthProvider(services);
  const interaction = await interactionOf(provider, raw, input.uid);
  const clientId = String(interaction.params.client_id ?? '');
  if (input.clientId && input.clientId !== clientId) throw new AppError('VALIDATION', INTERACTION_EXPIRED);
  // Deleted since its consent screen was shown: no grant for an application that no longer exists.
  if (!(await findUserAppByKey(services.db, clientId))) throw new AppError('VALIDATION', INTERACTION_EXPIRED);
  const user = await sessionUser(services, input.ip, input.accessToken);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in to grant access');
  const expected = Buffer.from(consentToken(services, interaction.uid, user.key));
  const given = Buffer.from(input.token ?? '');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError('FORBIDDEN', 'This consent was not shown to you; please reload the page');
  }
  if (interaction.session?.accountId && interaction.session.accountId !== user.key) {
    // This browser's provider session is the other account's, and each new authorization would
    // find (and prolong) it: forget it, so that starting again works for this user.
    const other = interaction.session.uid ? await provider.Session.findByUid(interaction.session.uid) : undefined;
    if (other?.accountId === interaction.session.accountId) await other.destroy();
    throw new AppError(
      'VALIDATION',
      'Another account used this browser for an authorization a moment ago. Please start again from the application.',
    );
  }
  let result: InteractionResults;
  if (input.deny) {
    result = { error: 'access_denied', error_description: 'The user did not grant access' };
  } else {
    const grantId = interaction.grantId ?? (await findUserGrantId(services.db, user.key, clientId));
    const found = grantId ? await provider.Grant.find(grantId) : undefined;
    const grant =
      found && found.accountId === user.key && found.clientId === clientId
        ? found
        : new provider.Grant({ accountId: user.key, clientId });
    const scopes = requestedScopes(interaction.params);
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    result = { login: { accountId: user.key, remember: false }, consent: { grantId: await grant.save() } };
  }
  return provider.interactionResult(raw.req, raw.res, result, { mergeWithLastSubmission: false });
}

/** Confirms the interaction is live for this browser and belongs to `clientId`. */
export async function liveInteraction(services: Services, raw: RawExchange, uid: string, clientId?: string) {
  const provider = await oauthProvider(services);
  const interaction = await interactionOf(provider, raw, uid);
  if (clientId && clientId !== interaction.params.client_id) throw new AppError('VALIDATION', INTERACTION_EXPIRED);
  return interaction;
}
