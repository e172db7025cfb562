// What is checked before a trade, kept per MetaApi account so an order costs one request:
//   - the account is deployed and connected (WIRE §8: otherwise it cannot trade); an undeployed
//     one is deployed for the next signal and this one refused, nothing sent; looked at again
//     after 30 s;
//   - the server's name for the signal's symbol (GET …/symbols, kept 15 minutes): letter case
//     as the server has it, and a suffix or prefix it adds (EURUSDm, EURUSD.m, #AAPL) when exactly
//     one symbol fits. Digits and capitals are never added: US30 is not US300, EURUSD not EURUSDX.
import { type Order, parseSymbol, writtenSymbol } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { accountPath, fail, type MetaApiLink, provisioningClient, tradingClient } from './client.ts';

const STATE_TTL_MS = 30_000;
const SYMBOLS_TTL_MS = 15 * 60_000;
const CACHE_SIZE = 1_000;
/** What a server may append: .m, .cash, _i, -ECN, + or lower-case letters (m, pro). */
const DECORATION = /^[.#_+-][A-Za-z0-9]{0,5}$|^[a-z]{1,4}$/;

/** A small map whose entries expire and whose oldest entry goes first when it is full. */
function expiringMap<T>(ttlMs: number, now: () => number) {
  const entries = new Map<string, { at: number; value: T }>();
  return {
    get(key: string): T | undefined {
      const hit = entries.get(key);
      return hit && now() - hit.at < ttlMs ? hit.value : undefined;
    },
    set(key: string, value: T) {
      entries.delete(key);
      entries.set(key, { at: now(), value });
      if (entries.size > CACHE_SIZE) entries.delete(entries.keys().next().value ?? '');
    },
    delete: (key: string) => entries.delete(key),
  };
}

/**
 * What a signal names, as MetaTrader servers spell it: EUR/USD → EURUSD. Anything else goes as the
 * order carries it: a CFD's name (HK50) read again would be a contract month (HK2050).
 */
export function wantedName(order: Pick<Order, 'symbol'>): string {
  const parsed = parseSymbol(order.symbol);
  return parsed.parts.kind === 'pair' ? `${parsed.parts.base}${parsed.parts.quote}` : writtenSymbol(order.symbol);
}

/** The one symbol of the server `wanted` names, or a refusal naming what was found. */
export function matchSymbol(wanted: string, symbols: readonly string[], server: string): string {
  const upper = wanted.toUpperCase();
  const exact = symbols.filter((name) => name.toUpperCase() === upper);
  if (exact.length === 1 && exact[0]) return exact[0];
  const decorated = exact.length
    ? exact
    : symbols.filter((name) => {
        const at = name.toUpperCase().indexOf(upper);
        if (at < 0 || at > 1) return false;
        const before = name.slice(0, at);
        const after = name.slice(at + upper.length);
        return (before === '' || /^[#._]$/.test(before)) && (after === '' || DECORATION.test(after));
      });
  if (decorated.length === 1 && decorated[0]) return decorated[0];
  if (decorated.length > 1)
    throw fail(
      'InvalidOrder',
      `${wanted} matches several symbols on ${server} (${decorated.join(', ')}): send the exact name`,
    );
  throw fail('InvalidOrder', `Symbol not found: ${wanted} (not on ${server})`);
}

export function createTerminalChecks(now: () => number = Date.now) {
  const connected = expiringMap<true>(STATE_TTL_MS, now);
  const symbols = expiringMap<string[]>(SYMBOLS_TTL_MS, now);

  return {
    /** Refuses (nothing sent) unless MetaApi has the account deployed and connected. */
    async ready(ctx: BrokerContext, link: MetaApiLink): Promise<void> {
      if (connected.get(link.metaApiId)) return;
      const http = provisioningClient(ctx, link.token);
      const { body } = await http.request({ path: accountPath(link.metaApiId) });
      const { state, connectionStatus } = (body ?? {}) as { state?: unknown; connectionStatus?: unknown };
      if (state === 'DEPLOYED' && connectionStatus === 'CONNECTED') {
        connected.set(link.metaApiId, true);
        return;
      }
      if (state === 'UNDEPLOYED' || state === 'CREATED') {
        // Starting the account places no trade: a lost answer leaves no order's outcome unknown.
        await http.request({ method: 'POST', path: `${accountPath(link.metaApiId)}/deploy`, mutating: false });
        throw fail(
          'BrokerUnavailable',
          'the account was stopped at MetaApi and is starting now; send the signal again in a minute',
        );
      }
      const where = `${String(state ?? 'unknown').toLowerCase()}, ${String(connectionStatus ?? 'disconnected').toLowerCase()}`;
      throw fail(
        'BrokerUnavailable',
        `the account is not connected to ${link.server} at MetaApi (${where}); nothing was sent`,
      );
    },

    /** Forgets the account's state after an answer that says it is not connected. */
    forget(link: MetaApiLink) {
      connected.delete(link.metaApiId);
    },

    async symbol(ctx: BrokerContext, link: MetaApiLink, order: Pick<Order, 'symbol'>): Promise<string> {
      let names = symbols.get(link.metaApiId);
      if (!names) {
        const { body } = await tradingClient(ctx, link).request({ path: `${accountPath(link.metaApiId)}/symbols` });
        names = Array.isArray(body) ? body.filter((name): name is string => typeof name === 'string') : [];
        symbols.set(link.metaApiId, names);
      }
      return matchSymbol(wantedName(order), names, link.server);
    },
  };
}

export type TerminalChecks = ReturnType<typeof createTerminalChecks>;
