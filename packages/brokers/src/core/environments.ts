// Brokers with a live and a demo (paper, sandbox) API on different origins, keys valid on one
// only. Connecting finds the environment the credentials belong to; later calls go there.
// `<NAME>_BASE_URL` (a fake, staging) replaces both origins, so the URL alone decides nothing then.
import type { BrokerContext } from './broker.ts';
import { isBrokerError } from './errors.ts';

export type EnvironmentKind = 'live' | 'demo';

export interface BrokerEnvironments {
  live: string;
  demo: string;
}

/** True when `<NAME>_BASE_URL` points somewhere other than the broker's own origins. */
export function isBaseUrlOverridden(ctx: BrokerContext, environments: BrokerEnvironments): boolean {
  return ctx.baseUrl !== '' && ctx.baseUrl !== environments.live && ctx.baseUrl !== environments.demo;
}

/** Where a connection of this environment is served. */
export function environmentBaseUrl(
  ctx: BrokerContext,
  environments: BrokerEnvironments,
  kind: EnvironmentKind,
): string {
  return isBaseUrlOverridden(ctx, environments) ? ctx.baseUrl : environments[kind];
}

export interface EnvironmentAttempt<T> {
  kind: EnvironmentKind;
  baseUrl: string;
  /** The base URL was overridden: `kind` is only the hint, the URL did not tell. */
  overridden: boolean;
  result: T;
}

/**
 * Calls `attempt` on the hinted environment first and, when the broker refuses the credentials
 * there (AuthenticationError), on the other. With the base URL pinned to one environment (or
 * overridden) there is one try. Other errors end the search at once.
 */
export async function connectToEnvironment<T>(
  ctx: BrokerContext,
  environments: BrokerEnvironments,
  hint: EnvironmentKind,
  attempt: (baseUrl: string, kind: EnvironmentKind) => Promise<T>,
): Promise<EnvironmentAttempt<T>> {
  if (isBaseUrlOverridden(ctx, environments)) {
    return { kind: hint, baseUrl: ctx.baseUrl, overridden: true, result: await attempt(ctx.baseUrl, hint) };
  }
  const kinds: EnvironmentKind[] =
    ctx.baseUrl === environments.demo ? ['demo'] : hint === 'demo' ? ['demo', 'live'] : ['live', 'demo'];
  let lastError: unknown;
  for (const kind of kinds) {
    const baseUrl = environments[kind];
    try {
      return { kind, baseUrl, overridden: false, result: await attempt(baseUrl, kind) };
    } catch (error) {
      if (!isBrokerError(error) || error.kind !== 'AuthenticationError') throw error;
      lastError = error;
    }
  }
  throw lastError;
}
