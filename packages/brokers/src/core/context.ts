// Builds a broker's BrokerContext from configuration the server read once (config.ts); this
// package reads no environment: the server passes the values, so tests and staging can point a
// broker at a fake with `<NAME>_BASE_URL`.
import type { BrokerContext, BrokerDescriptor } from './broker.ts';

export interface BrokerConfig {
  /** Broker settings by variable name: `<NAME>_BASE_URL`, `<NAME>_CLIENT_ID`, `<NAME>_CLIENT_SECRET`. */
  values?: Readonly<Record<string, string | undefined>>;
  /** The site's public origin; OAuth brokers redirect to `${publicUrl}/callback/<name>`. */
  publicUrl?: string;
  now?: () => number;
}

/** 'paper' → 'PAPER', 'interactive-brokers' → 'INTERACTIVE_BROKERS'. */
export function configPrefix(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

function setting(config: BrokerConfig, name: string, suffix: string): string | undefined {
  const value = config.values?.[`${configPrefix(name)}_${suffix}`]?.trim();
  return value ? value : undefined;
}

/**
 * The context for one call. `baseUrl` is '' for brokers that call nothing (paper); `signal`
 * carries the caller's deadline.
 */
export function resolveBrokerContext(
  descriptor: BrokerDescriptor,
  config: BrokerConfig,
  signal?: AbortSignal,
): BrokerContext {
  const baseUrl = (setting(config, descriptor.name, 'BASE_URL') ?? descriptor.baseUrl ?? '').replace(/\/+$/, '');
  const clientId = setting(config, descriptor.name, 'CLIENT_ID');
  const clientSecret = setting(config, descriptor.name, 'CLIENT_SECRET');
  const publicUrl = config.publicUrl?.replace(/\/+$/, '');
  return {
    baseUrl,
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(publicUrl && descriptor.authentication.type === 'open'
      ? { redirectUrl: `${publicUrl}/callback/${descriptor.name}` }
      : {}),
    ...(config.now ? { now: config.now } : {}),
    ...(signal ? { signal } : {}),
  };
}
