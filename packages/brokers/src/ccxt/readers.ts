// Typed readings of ccxt's loose structures: markets, orders, balances and positions.

import type { OrderResponse } from '@router/orders';
import type { Balances, Order as CcxtOrder, Exchange, Market, Position } from 'ccxt';
import type { Holding, Holdings } from '../core/broker.ts';
import type { MarketInfo } from './symbols.ts';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function toMarketInfo(market: Market): MarketInfo | undefined {
  if (!market?.id || !market.symbol) return undefined;
  const info: unknown = market.info;
  const record = typeof info === 'object' && info !== null ? (info as Record<string, unknown>) : {};
  const aliases = [text(record.altname), text(record.wsname), text(record.display_name)].filter(
    (alias): alias is string => alias !== undefined,
  );
  const contractSize = num(market.contractSize);
  return {
    id: market.id,
    symbol: market.symbol,
    base: market.base,
    quote: market.quote,
    spot: market.spot === true,
    swap: market.swap === true,
    active: market.active !== false,
    ...(contractSize !== undefined ? { contractSize } : {}),
    aliases,
  };
}

export function toMarketInfos(markets: Exchange['markets']): MarketInfo[] {
  return Object.values(markets ?? {})
    .map((market) => (market ? toMarketInfo(market) : undefined))
    .filter((market): market is MarketInfo => market !== undefined);
}

const STATUS: Readonly<Record<string, OrderResponse['status']>> = {
  open: 'accepted',
  closed: 'filled',
  canceled: 'canceled',
  expired: 'canceled',
  rejected: 'rejected',
};

/**
 * The exchange's own statuses ccxt unifies wrongly: Coinbase's FAILED (an order that failed to be
 * processed, never worked) is ccxt's 'canceled', though nothing was ever placed.
 */
const RAW_STATUS: Readonly<Record<string, OrderResponse['status']>> = {
  FAILED: 'rejected',
};

export function toOrderResponse(order: CcxtOrder, fallbackId?: string): OrderResponse {
  const average = num(order.average);
  const filled = num(order.filled);
  const raw: unknown = (order.info as Record<string, unknown> | undefined)?.status;
  // An order that filled some first ended with that fill: ccxt's status stays.
  const own = typeof raw === 'string' && !filled ? RAW_STATUS[raw] : undefined;
  const status = own ?? STATUS[order.status ?? ''] ?? 'accepted';
  const description = [order.status ?? 'submitted', order.type, order.side, order.amount, order.symbol]
    .filter((part) => part !== undefined && part !== null && part !== '')
    .join(' ');
  return {
    id: order.id ?? fallbackId ?? '',
    status,
    status_description: filled ? `${description}, filled ${filled}` : description,
    ...(average !== undefined && average > 0 ? { price: average } : {}),
  };
}

const CASH_CODES = ['USD', 'USDT', 'USDC', 'EUR', 'GBP'];

/** `margin`: a derivatives account, whose margin currency (BTC at BitMEX) is its cash. */
export function toHoldings(balances: Balances, positions: readonly Position[] = [], margin = false): Holdings {
  const totals = (balances.total ?? {}) as unknown as Record<string, unknown>;
  const free = (balances.free ?? {}) as unknown as Record<string, unknown>;
  const funded = (code: string) => (num(totals[code]) ?? 0) !== 0;
  const currency =
    CASH_CODES.find(funded) ??
    (margin ? Object.keys(totals).find(funded) : undefined) ??
    CASH_CODES.find((code) => code in totals);
  const held: Holding[] = [];
  for (const [code, amount] of Object.entries(totals)) {
    const quantity = num(amount);
    if (code !== currency && quantity) held.push({ symbol: code, quantity });
  }
  for (const position of positions) {
    const contracts = num(position.contracts);
    if (!position.symbol || !contracts) continue;
    const entry = num(position.entryPrice);
    const value = num(position.notional);
    held.push({
      symbol: position.symbol,
      quantity: position.side === 'short' ? -Math.abs(contracts) : Math.abs(contracts),
      ...(entry !== undefined ? { averagePrice: entry } : {}),
      ...(value !== undefined ? { marketValue: Math.abs(value) } : {}),
    });
  }
  const cash = currency ? num(totals[currency]) : undefined;
  const buyingPower = currency ? num(free[currency]) : undefined;
  return {
    ...(currency ? { currency } : {}),
    ...(cash !== undefined ? { cash } : {}),
    ...(buyingPower !== undefined ? { buyingPower } : {}),
    positions: held,
  };
}
