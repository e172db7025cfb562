// providerMetatraderBranches (SPEC §7): the broker servers matching a search, for the connect
// form's branch field (SPEC §3 Connector.branch). The provider's adapter searches (MetaTrader:
// MetaApi's known-server lists, cached there); a provider without a server search has none.
import type { BrokerBranch } from '@router/brokers';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { brokerContextFor, connectFailure, providerBroker } from './provider.ts';

/** The provider SPEC names the query for. */
export const BRANCH_PROVIDER = 'metatrader';
export const MAX_BRANCH_SEARCH_LENGTH = 100;
const SEARCH_TIMEOUT_MS = 10_000;

export async function searchBranches(
  services: Services,
  providerName: string,
  search: string,
): Promise<BrokerBranch[]> {
  if (search.length > MAX_BRANCH_SEARCH_LENGTH)
    throw new AppError('VALIDATION', `At most ${MAX_BRANCH_SEARCH_LENGTH} characters`, { field: 'search' });
  const broker = await providerBroker(services, providerName);
  if (!broker.searchBranches) return [];
  try {
    return await broker.searchBranches(
      brokerContextFor(services, broker, AbortSignal.timeout(SEARCH_TIMEOUT_MS)),
      search,
    );
  } catch (error) {
    throw connectFailure(services, broker, error);
  }
}
