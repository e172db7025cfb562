// A provider's adapter and its call context, from the server's configuration; broker failures
// turned into AppErrors whose message is the broker's own ('<Title>: …').
import {
  type Broker,
  type BrokerContext,
  compareProviders,
  configPrefix,
  isBrokerError,
  isUnavailable,
  resolveBrokerContext,
  unavailableError,
} from '@router/brokers';
import type { Provider } from '@router/orders';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { brokerAppError } from './broker-error.ts';

/**
 * The working adapter of `providerName`; NOT_FOUND for unknown or disabled providers, and for
 * unavailable ones (listed, no public order API) the refusal their help text words.
 */
export async function providerBroker(services: Services, providerName: string): Promise<Broker> {
  const descriptor = services.brokers.descriptor(providerName);
  if (!descriptor || descriptor.status === 'disabled') {
    throw new AppError('NOT_FOUND', 'Provider not found', { field: 'providerName' });
  }
  if (isUnavailable(descriptor)) {
    throw new AppError('EXECUTION', unavailableError(descriptor).message, { field: 'providerName' });
  }
  const broker = await services.brokers.load(providerName);
  if (!broker) throw new AppError('NOT_FOUND', 'Provider not found', { field: 'providerName' });
  return broker;
}

const contexts = new WeakMap<Config, Map<string, BrokerContext>>();

/** The broker's context (base URL, client id and secret, OAuth redirect), built once per provider. */
export function brokerContextFor(
  services: Services,
  broker: Pick<Broker, 'descriptor'>,
  signal?: AbortSignal,
): BrokerContext {
  const { config } = services;
  let byName = contexts.get(config);
  if (!byName) {
    byName = new Map();
    contexts.set(config, byName);
  }
  const { name } = broker.descriptor;
  let ctx = byName.get(name);
  if (!ctx) {
    ctx = resolveBrokerContext(broker.descriptor, { config: config.brokers[name], publicUrl: config.PUBLIC_URL });
    byName.set(name, ctx);
  }
  return signal ? { ...ctx, signal } : ctx;
}

export const NOT_CONFIGURED = 'its operator has not configured it. Please contact support.';

/**
 * An OAuth broker needs this server's own app registered with it (`<BROKER>_CLIENT_ID`, and
 * `_CLIENT_SECRET` where the broker wants one: the adapter checks that). Without it the user reads
 * that the operator has not set the broker up; the operator reads the variable names in the log.
 */
export function requireAppCredentials(services: Services, broker: Broker, ctx: BrokerContext): void {
  if (ctx.clientId) return;
  const { name, title } = broker.descriptor;
  const prefix = configPrefix(name);
  services.log.warn(
    { provider: name },
    `${title} is not configured: set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET to connect it`,
  );
  throw new AppError('EXECUTION', notConfigured(title));
}

const notConfigured = (title: string) => `${title} is not available on this server yet: ${NOT_CONFIGURED}`;

/**
 * The providers users see (the `providers` query): the registry's, where an OAuth broker this
 * server has no app for is 'unavailable' with the reason as its help, so the connect grid, the
 * docs and the admin's referral form do not offer what `requireAppCredentials` would refuse.
 */
export function offeredProviders(services: Services): Provider[] {
  return services.brokers
    .providers()
    .map((provider) => {
      const descriptor = services.brokers.descriptor(provider.name);
      if (provider.authentication.type !== 'open' || !descriptor || brokerContextFor(services, { descriptor }).clientId)
        return provider;
      const authentication = { ...provider.authentication, help: notConfigured(provider.title) };
      return { ...provider, status: 'unavailable' as const, authentication };
    })
    .sort(compareProviders);
}

/** A failed connect or authorization: the broker's message, or a generic one (logged). */
export function connectFailure(services: Services, broker: Broker, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isBrokerError(error)) {
    // An outage, or this server's app refused (its credentials wrong): the operator reads it here.
    if (error.kind === 'BrokerUnavailable')
      services.log.warn({ provider: broker.descriptor.name, reason: error.message }, 'broker connect failed');
    return brokerAppError(error);
  }
  services.log.error({ err: error, provider: broker.descriptor.name }, 'broker connect failed');
  return new AppError('EXECUTION', `${broker.descriptor.title}: the connection failed, please try again`, {
    cause: error,
  });
}
