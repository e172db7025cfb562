// Right after a start, the adapters of the brokers that active connections use are loaded, so the
// first signal after a restart or a deploy does not wait for its broker's code: an adapter is
// imported on its first use (packages/brokers, core/registry.ts), which takes 2–10 ms for a REST
// adapter, 30–90 ms for Rithmic's and cTrader's protocol schemas and 0.5–0.7 s for a ccxt venue's
// (ccxt itself). Each then loads what its first call would (`Broker.warm`: a ccxt venue's market
// list, a round trip and 85–192 ms of parsing for Kraken's). Brokers nobody uses here stay
// unloaded, as does a connection's broker whose folder was since removed.
import type { Broker } from '@router/brokers';
import { listActiveProviderNames } from '../../db/repositories/connectors.repository.ts';
import type { Services } from '../../services.ts';
import { brokerContextFor } from './provider.ts';

/**
 * Loads the adapters of the active connections' brokers, and warms them; answers the names loaded
 * now. `signal` ends the warming (the server stops).
 */
export async function warmBrokerAdapters(services: Services, signal?: AbortSignal): Promise<string[]> {
  const { brokers, log } = services;
  const ready = new Set(brokers.loaded().map((broker) => broker.descriptor.name));
  const names = (await listActiveProviderNames(services.db)).filter(
    (name) => brokers.descriptor(name) && !ready.has(name),
  );
  const started = performance.now();
  const loaded = await Promise.all(
    names.map(async (name) => {
      let broker: Broker | undefined;
      try {
        broker = await brokers.load(name);
      } catch (error) {
        // Its first signal tries the import again (a failed load is forgotten) and answers the error.
        log.warn({ err: error, broker: name }, 'broker adapter failed to load');
        return undefined;
      }
      if (!broker) return undefined;
      // Its first call loads what this could not (the exchange unreachable now).
      await broker.warm?.(brokerContextFor(services, broker, signal)).catch((error: unknown) => {
        // The broker's words, not a stack: an exchange out of reach is expected now and then.
        const reason = error instanceof Error ? error.message : String(error);
        if (!signal?.aborted) log.warn({ broker: name, reason }, 'broker not warmed');
      });
      return name;
    }),
  );
  const done = loaded.filter((name): name is string => name !== undefined);
  if (done.length > 0)
    log.info({ brokers: done, ms: Math.round(performance.now() - started) }, 'broker adapters loaded');
  return done;
}
