// GET /api/v1/accounts/{id}/positions and /balances: the adapter's getHoldings, for brokers whose
// descriptor declares it (`has.getHoldings`); the others answer ExecutionError saying so.
import type { Holdings } from '@router/brokers';
import type { ApiBalances, ApiPosition } from '@router/shared/api';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { asAppError, withBrokerSession } from '../connectors/index.ts';
import type { ResolvedAccount } from './accounts.ts';

async function holdings(services: Services, target: ResolvedAccount): Promise<Holdings> {
  const { connector, account } = target;
  const broker = await services.brokers.load(connector.providerName);
  if (!broker?.getHoldings || broker.descriptor.has.getHoldings === false) {
    const title = broker?.descriptor.title ?? connector.providerName;
    throw new AppError('EXECUTION', `${title}: positions and balances are not offered by this broker`);
  }
  return withBrokerSession(
    services,
    connector,
    ({ broker: b, ctx, session }) => (b.getHoldings as NonNullable<typeof b.getHoldings>)(ctx, session, account.id),
    { signal: AbortSignal.timeout(services.config.HOOK_DEADLINE_MS) },
  ).catch((error: unknown) => {
    throw asAppError(error);
  });
}

const orNull = (value: number | undefined): number | null => value ?? null;

export async function getApiPositions(services: Services, target: ResolvedAccount): Promise<ApiPosition[]> {
  const { positions } = await holdings(services, target);
  return positions.map((p) => ({
    symbol: p.symbol,
    quantity: p.quantity,
    averagePrice: orNull(p.averagePrice),
    marketValue: orNull(p.marketValue),
  }));
}

export async function getApiBalances(services: Services, target: ResolvedAccount): Promise<ApiBalances> {
  const h = await holdings(services, target);
  return {
    currency: h.currency ?? null,
    cash: orNull(h.cash),
    equity: orNull(h.equity),
    buyingPower: orNull(h.buyingPower),
  };
}
