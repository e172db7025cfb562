// Symbols → FOREX.com markets (WIRE.md §4). Orders name an integer MarketId: it is searched by the
// pair's name among the markets the account may trade (GET /cfd/markets, /spread/markets for
// spread-betting accounts), its limits read from /market/{id}/information, and both cached. The
// quote a trade is made on comes from the last bid and offer ticks.
import { parseSymbol } from '@router/orders';
import type { BrokerAccount, BrokerContext, BrokerSession } from '../../core/broker.ts';
import { accountNotInConnection, BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { ForexApi } from './api.ts';
import { FOREX_TITLE } from './descriptor.ts';

const CACHE_MS = 12 * 60 * 60_000;

export interface ForexAccount {
  tradingAccountId: number;
  clientAccountId: number;
  /** CFD or spread-betting account: the market lists differ. */
  kind: 'cfd' | 'spread';
  currency: string;
}

export interface ForexMarket {
  marketId: number;
  name: string;
  minSize?: number;
  maxSize?: number;
  decimals?: number;
}

export interface Quote {
  bid: number;
  offer: number;
}

/** The trading account a call names; it must belong to the connection. */
export function accountOf(session: BrokerSession, accountId: string): ForexAccount {
  const account: BrokerAccount | undefined = session.accounts.find((item) => item.id === accountId);
  const clientAccountId = Number(session.secrets.clientAccountId);
  if (!account) throw accountNotInConnection(FOREX_TITLE, accountId);
  if (!clientAccountId)
    throw new BrokerError('AuthenticationError', FOREX_TITLE, `account ${accountId} is not part of this connection`);
  return {
    tradingAccountId: Number(accountId),
    clientAccountId,
    kind: account.dataType === 'spread' ? 'spread' : 'cfd',
    currency: account.dataCurrency ?? 'USD',
  };
}

/** The market name of a signal's symbol: EURUSD, EUR-USD and EUR/USD are "EUR/USD". */
export function marketName(symbol: string): string {
  const { parts } = parseSymbol(symbol);
  if (parts.kind !== 'pair')
    throw new BrokerError('InvalidOrder', FOREX_TITLE, `${symbol} is not a currency or metal pair`);
  return `${parts.base}/${parts.quote}`;
}

const sameName = (a: string, b: string) => a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();

export interface MarketCache {
  market(
    ctx: BrokerContext,
    session: BrokerSession,
    account: ForexAccount,
    symbol: string,
    now: number,
  ): Promise<ForexMarket>;
}

export function createMarketCache(api: ForexApi): MarketCache {
  const cache = new Map<string, { market: ForexMarket; until: number }>();
  return {
    async market(ctx, session, account, symbol, now) {
      const name = marketName(symbol);
      const key = `${session.secrets.userName}:${account.kind}:${name}`;
      const cached = cache.get(key);
      if (cached && cached.until > now) return cached.market;
      const { body } = await api.call(ctx, session, {
        path: account.kind === 'spread' ? '/spread/markets' : '/cfd/markets',
        query: { MarketName: name, MaxResults: 5, ClientAccountId: account.clientAccountId },
      });
      const found = listOf(asRecord(body)?.Markets).find((item) => sameName(stringField(item, 'Name') ?? '', name));
      const marketId = decimalField(found, 'MarketId');
      if (marketId === undefined)
        throw new BrokerError('InvalidOrder', FOREX_TITLE, `no market ${name} for this account`);
      const info = asRecord(
        asRecord((await api.call(ctx, session, { path: `/market/${marketId}/information` })).body)?.MarketInformation,
      );
      const optional = (field: string, value: number | undefined) => (value === undefined ? {} : { [field]: value });
      const market: ForexMarket = {
        marketId,
        name,
        ...optional('minSize', decimalField(info, 'WebMinSize')),
        ...optional('maxSize', decimalField(info, 'MaxSize')),
        ...optional('decimals', decimalField(info, 'PriceDecimalPlaces')),
      };
      cache.set(key, { market, until: now + CACHE_MS });
      return market;
    },
  };
}

/** The last bid and offer (tick history, one tick of each; the SMD's route with `priceType`, as clients use it). */
export async function quoteOf(
  api: ForexApi,
  ctx: BrokerContext,
  session: BrokerSession,
  marketId: number,
): Promise<Quote> {
  const last = async (priceType: 'BID' | 'ASK') => {
    const { body } = await api.call(ctx, session, {
      path: `/market/${marketId}/tickhistory`,
      query: { PriceTicks: 1, priceType },
    });
    const price = decimalField(listOf(asRecord(body)?.PriceTicks).at(-1), 'Price');
    if (price === undefined)
      throw new BrokerError(
        'BrokerUnavailable',
        FOREX_TITLE,
        `no ${priceType.toLowerCase()} price for market ${marketId}`,
      );
    return price;
  };
  const [bid, offer] = await Promise.all([last('BID'), last('ASK')]);
  return { bid, offer };
}
