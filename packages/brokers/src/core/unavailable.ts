// A provider that is listed but cannot be connected (status 'unavailable'): a broker with no
// public order API. Its folder is one call, so the grid can say why and what to do instead:
//   export default defineUnavailableBroker({ name: 'lightspeed', title: 'Lightspeed', help: '…' });
// The server refuses connectorCreate/connectorActivate with `unavailableError(descriptor).message`
// before calling anything; the adapter refuses too, so no path can fake a connection.
import type { Broker, BrokerDescriptor } from './broker.ts';
import { NO_CAPABILITIES } from './capabilities.ts';
import { type BrokerModule, defineBroker } from './define.ts';
import { BrokerError } from './errors.ts';

export interface UnavailableProvider {
  name: string;
  title: string;
  /** SPEC §9 scale factor of the grid tile. */
  scale?: number;
  /** Why it cannot be connected and what a trader can do instead; shown in place of a connect form. */
  help: string;
}

export function isUnavailable(descriptor: Pick<BrokerDescriptor, 'status'>): boolean {
  return descriptor.status === 'unavailable';
}

/** The refusal of a connection to an unavailable provider: '<Title>: cannot be connected. <help>'. */
export function unavailableError(descriptor: BrokerDescriptor): BrokerError {
  const help = descriptor.authentication.help ?? 'it offers no public order API.';
  return new BrokerError('BrokerUnavailable', descriptor.title, `cannot be connected. ${help}`);
}

export function defineUnavailableBroker(provider: UnavailableProvider): BrokerModule {
  const descriptor: BrokerDescriptor = {
    name: provider.name,
    title: provider.title,
    status: 'unavailable',
    ...(provider.scale !== undefined ? { scale: provider.scale } : {}),
    // No credential to ask for: the connect dialog shows the help text instead of a form.
    authentication: { type: 'credentials', credentials: [], help: provider.help },
    reference: {},
    has: NO_CAPABILITIES,
    clientOrderId: null,
  };
  const refuse = () => Promise.reject(unavailableError(descriptor));
  const broker: Broker = { descriptor, connect: refuse, placeOrder: refuse };
  return defineBroker({ descriptor, load: () => Promise.resolve(broker) });
}
