// MetaApi's list of known MetaTrader servers, `GET /known-mt-servers/{4|5}/search?query=`: a JSON
// object broker name → server names, {"Raw Trading Ltd": ["ICMarketsSC-Demo", "ICMarketsSC-MT5"]}.
// The connect form suggests from it (providerMetatraderBranches) and connecting reads the
// platform of a server from it. Answers are kept an hour per version and query: brokers rarely
// add servers, and the form asks on every few keystrokes.
import type { BrokerBranch, BrokerContext } from '../../core/broker.ts';
import { asRecord } from '../../core/json-read.ts';
import { type Platform, provisioningClient } from './client.ts';

const CACHE_TTL_MS = 60 * 60_000;
const CACHE_SIZE = 500;
/** Shorter searches match too much to be useful. */
export const MIN_SEARCH_LENGTH = 2;
const MAX_RESULTS = 50;
const VERSIONS: ReadonlyArray<[4 | 5, Platform]> = [
  [5, 'mt5'],
  [4, 'mt4'],
];

export interface ServerSearch {
  /** Servers whose name or broker matches `text`, MT5 before MT4, names starting with it first. */
  search(ctx: BrokerContext, token: string, text: string): Promise<BrokerBranch[]>;
  /** The platforms a server name is listed under (exact name, any case); empty when unlisted. */
  platformsOf(ctx: BrokerContext, token: string, server: string): Promise<Platform[]>;
}

function rowsOf(body: unknown, platform: Platform): BrokerBranch[] {
  const rows: BrokerBranch[] = [];
  for (const [broker, servers] of Object.entries(asRecord(body) ?? {})) {
    if (!Array.isArray(servers)) continue;
    for (const name of servers) if (typeof name === 'string' && name) rows.push({ name, broker, platform });
  }
  return rows;
}

export function createServerSearch(now: () => number = Date.now): ServerSearch {
  const cache = new Map<string, { at: number; rows: BrokerBranch[] }>();

  async function listed(ctx: BrokerContext, token: string, version: 4 | 5, platform: Platform, query: string) {
    const key = `${version}\n${query.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < CACHE_TTL_MS) return hit.rows;
    const answer = await provisioningClient(ctx, token).request({
      path: `/known-mt-servers/${version}/search`,
      query: { query },
    });
    const rows = rowsOf(answer.body, platform);
    cache.delete(key);
    cache.set(key, { at: now(), rows });
    // Maps keep insertion order: the first key is the least recently stored.
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value ?? '');
    return rows;
  }

  async function both(ctx: BrokerContext, token: string, query: string): Promise<BrokerBranch[]> {
    const lists = await Promise.all(
      VERSIONS.map(([version, platform]) => listed(ctx, token, version, platform, query)),
    );
    return lists.flat();
  }

  return {
    async search(ctx, token, text) {
      const query = text.trim();
      if (query.length < MIN_SEARCH_LENGTH) return [];
      const lower = query.toLowerCase();
      const first = (row: BrokerBranch) => (row.name.toLowerCase().startsWith(lower) ? 0 : 1);
      const rows = await both(ctx, token, query);
      // Stable sort: MetaApi's order within each group.
      return rows.sort((a, b) => first(a) - first(b)).slice(0, MAX_RESULTS);
    },

    async platformsOf(ctx, token, server) {
      const lower = server.toLowerCase();
      const rows = await both(ctx, token, server);
      return VERSIONS.map(([, platform]) => platform).filter((platform) =>
        rows.some((row) => row.platform === platform && row.name.toLowerCase() === lower),
      );
    },
  };
}
