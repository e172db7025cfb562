// Futures contracts as Rithmic names them (WIRE.md §2: symbol "ESZ4", exchange "CME"): root,
// month code, one-digit year, and the exchange the root trades on unless the symbol names it
// (CME:6EH2027). ES1! is the front month the ticker plant names (RequestFrontMonthContract 113 →
// 114 trading_symbol, as async_rithmic's get_front_month_contract asks it), kept an hour; later
// positions (ES2!) have no such request and are refused.
import type { Order } from '@router/orders';
import { futureTickOf, oneDigitYear, parseSymbol } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { RITHMIC_TITLE } from './descriptor.ts';
import { type Credentials, withPlant } from './plant.ts';
import { TICKER_PLANT } from './protocol.ts';

export interface Contract {
  root: string;
  /** ESH7 */
  symbol: string;
  exchange: string;
}

/** A contract as the order names it: `symbol` is absent for the front month (ES1!). */
export type WantedContract = Omit<Contract, 'symbol'> & { symbol?: string };

const EXCHANGES: Readonly<Record<string, readonly string[]>> = {
  CME: [
    ...['ES', 'MES', 'NQ', 'MNQ', 'RTY', 'M2K', 'EMD', 'NKD', 'LE', 'HE', 'GF'],
    ...['6A', '6B', '6C', '6E', '6J', '6S', '6N', '6M', 'M6E', 'M6A', 'M6B'],
  ],
  CBOT: ['YM', 'MYM', 'ZB', 'UB', 'ZN', 'ZF', 'ZT', 'TN', 'ZC', 'ZS', 'ZW', 'KE', 'ZO', 'ZL', 'ZM'],
  NYMEX: ['CL', 'MCL', 'QM', 'NG', 'QG', 'RB', 'HO', 'PL', 'PA'],
  COMEX: ['GC', 'MGC', 'SI', 'SIL', 'HG', 'MHG'],
};
const EXCHANGE_OF = new Map(Object.entries(EXCHANGES).flatMap(([exchange, roots]) => roots.map((r) => [r, exchange])));

/**
 * A prefix's exchange as Rithmic names it: TradingView's {{exchange}} puts the E-minis and micros on
 * CME_MINI (CBOT_MINI, NYMEX_MINI, COMEX_MINI), which has no trade route: they trade on CME (WIRE.md §2).
 */
const exchangeOf = (prefix: string): string => prefix.toUpperCase().replace(/^(CME|CBOT|NYMEX|COMEX)_MINI$/, '$1');

const FRONT_MONTH_TTL_MS = 60 * 60_000;
const MAX_ENTRIES = 1_000;
const frontMonths = new Map<string, { contract: Contract; until: number }>();

const invalid = (message: string) => new BrokerError('InvalidOrder', RITHMIC_TITLE, message);

/** The contract the order names, checked without asking Rithmic. */
export function contractOf(order: Pick<Order, 'symbol' | 'exchange'>, now: number): WantedContract {
  const { parts } = parseSymbol(order.symbol, { now: () => now });
  if (parts.kind !== 'future' && parts.kind !== 'continuous_future')
    throw invalid(`${order.symbol} is not a futures contract; give one as ESH2027 or ES1!`);
  if (parts.kind === 'continuous_future' && parts.position !== 1)
    throw invalid(`only the front month (${parts.root}1!) is resolved; name the month of ${order.symbol}`);
  const exchange = order.exchange === undefined ? EXCHANGE_OF.get(parts.root) : exchangeOf(order.exchange);
  // No example exchange: one that does not list the root (CME for Eurex's FESX) would be refused there.
  if (!exchange)
    throw invalid(
      `the exchange of ${parts.root} is not known; prefix the exchange as Rithmic names it, as in <exchange>:${parts.root}H2027`,
    );
  if (parts.kind === 'continuous_future') return { root: parts.root, exchange };
  const digit = oneDigitYear(parts.year, parts.month, now);
  if (digit === undefined) throw invalid(`${order.symbol} is too far off to name with a one-digit year`);
  return { root: parts.root, symbol: `${parts.root}${parts.monthCode}${digit}`, exchange };
}

async function frontMonth(ctx: BrokerContext, credentials: Credentials, wanted: WantedContract): Promise<Contract> {
  const { root, exchange } = wanted;
  const answer = await withPlant(
    ctx,
    credentials,
    (plant) =>
      plant.connection.request(
        { template_id: 113, symbol: root, exchange, need_updates: false },
        { refusal: 'InvalidOrder' },
      ),
    { infraType: TICKER_PLANT },
  ).catch((error: unknown) => {
    if (isBrokerError(error) && error.kind === 'InvalidOrder')
      throw invalid(`no front month of ${root} on ${exchange} (${error.brokerMessage})`);
    throw error;
  });
  const symbol = typeof answer.last.trading_symbol === 'string' ? answer.last.trading_symbol : '';
  if (!symbol) throw invalid(`no front month of ${root} on ${exchange}`);
  const trading = answer.last.trading_exchange;
  return { root, symbol, exchange: typeof trading === 'string' && trading ? trading : exchange };
}

/** The contract to send: dated as named, the front month as the ticker plant names it (kept an hour). */
export async function resolveContract(
  ctx: BrokerContext,
  credentials: Credentials,
  wanted: WantedContract,
  now: number,
): Promise<Contract> {
  if (wanted.symbol) return { ...wanted, symbol: wanted.symbol };
  const key = `${ctx.baseUrl}|${wanted.root}|${wanted.exchange}`;
  const known = frontMonths.get(key);
  if (known && known.until > now) return known.contract;
  const contract = await frontMonth(ctx, credentials, wanted);
  if (frontMonths.size >= MAX_ENTRIES) frontMonths.delete(frontMonths.keys().next().value ?? '');
  frontMonths.set(key, { contract, until: now + FRONT_MONTH_TTL_MS });
  return contract;
}

/** Test support: forget the front months asked. */
export function forgetFrontMonths(): void {
  frontMonths.clear();
}

/** The root's tick, where it is known (an entry's prices go on it); undefined for other roots. */
export const knownTickOf = (contract: Pick<Contract, 'root'>): number | undefined => futureTickOf(contract.root);

/** The root's tick, for brackets; refused for a root whose tick is not known. */
export function tickOf(contract: Pick<Contract, 'root'>): number {
  const tick = knownTickOf(contract);
  if (tick === undefined)
    throw invalid(`a bracket's exits are ticks from the entry, and the tick of ${contract.root} is not known`);
  return tick;
}
