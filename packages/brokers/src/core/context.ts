// A broker's configuration and the BrokerContext of one call. This package reads no environment:
// the server's config.ts reads `<NAME>_BASE_URL`, `<NAME>_CLIENT_ID` and `<NAME>_CLIENT_SECRET`
// once into a BrokerConfig per broker, so tests and staging can point a broker at a fake.
import type { BrokerContext, BrokerDescriptor } from './broker.ts';

/** One broker's settings, from its `<NAME>_*` variables. */
export interface BrokerConfig {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
}

/** Variable suffix → setting: `ALPACA_BASE_URL` sets alpaca's baseUrl. */
const BROKER_VARIABLES = { BASE_URL: 'baseUrl', CLIENT_ID: 'clientId', CLIENT_SECRET: 'clientSecret' } as const;

/** 'paper' → 'PAPER', 'interactive_brokers' → 'INTERACTIVE_BROKERS'. */
export function configPrefix(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/** The environment variables that give `name` this configuration (tests start servers with them). */
export function brokerVariables(name: string, config: BrokerConfig): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [suffix, key] of Object.entries(BROKER_VARIABLES)) {
    const value = config[key];
    if (value) variables[`${configPrefix(name)}_${suffix}`] = value;
  }
  return variables;
}

export interface ContextOptions {
  config?: BrokerConfig;
  /** The site's public origin; OAuth brokers redirect to `${publicUrl}/callback/<name>`. */
  publicUrl?: string;
  now?: () => number;
}

const trimmed = (value: string | undefined) => value?.trim() || undefined;

/**
 * The context for one call. `baseUrl` is '' for brokers that call nothing (paper); `signal`
 * carries the caller's deadline.
 */
export function resolveBrokerContext(
  descriptor: BrokerDescriptor,
  options: ContextOptions,
  signal?: AbortSignal,
): BrokerContext {
  const baseUrl = (trimmed(options.config?.baseUrl) ?? descriptor.baseUrl ?? '').replace(/\/+$/, '');
  const clientId = trimmed(options.config?.clientId);
  const clientSecret = trimmed(options.config?.clientSecret);
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  return {
    baseUrl,
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(publicUrl && descriptor.authentication.type === 'open'
      ? { redirectUrl: `${publicUrl}/callback/${descriptor.name}` }
      : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(signal ? { signal } : {}),
  };
}
