// The fake's book: accounts, orders as /port/v1/orders shows them, the audit log of order
// activities (Placed, FinalFill, Cancelled), and net positions. Shapes from
// broker-specs/saxo/fixtures (order-status, order-activities, accounts).
import { randomUUID } from 'node:crypto';
import type { CheckedOrder } from './fake-book.ts';
import type { FakeInstrument } from './fake-ref.ts';

type Json = Record<string, unknown>;

export interface FakeAccount {
  AccountKey: string;
  AccountId: string;
  ClientKey: string;
  Currency: string;
  cash: number;
  /** Net amount by `${Uic}|${AssetType}`. */
  positions: Map<string, { instrument: FakeInstrument; amount: number; price: number }>;
}

export interface FakeOrder {
  OrderId: string;
  account: FakeAccount;
  instrument: FakeInstrument;
  body: Json;
  amount: number;
  /** WIRE.md §6; a cancel under way (from elsewhere) shows as WorkingLockedCancelPending. */
  Status: 'Working' | 'NotWorking' | 'WorkingLockedCancelPending';
  OrderTime: string;
  OrderRelation: 'StandAlone' | 'IfDoneMaster' | 'IfDoneSlave' | 'Oco';
  related: string[];
  CorrelationKey: string;
}

export interface FakeState {
  now: () => number;
  accounts: Map<string, FakeAccount>;
  /** Open orders (working or waiting on their entry). */
  open: Map<string, FakeOrder>;
  activities: Json[];
  nextOrderId(): string;
  /** Orders placed through the API, every leg counted. */
  placedCount: number;
}

export function createState(now: () => number, accounts: FakeAccount[]): FakeState {
  // Clear of the published examples' ids (76288494, 76332324, 113319549, …).
  let next = 80_000_001;
  return {
    now,
    accounts: new Map(accounts.map((account) => [account.AccountKey, account])),
    open: new Map(),
    activities: [],
    nextOrderId: () => String(next++),
    placedCount: 0,
  };
}

export function logActivity(state: FakeState, order: FakeOrder, status: string, extra: Json = {}): void {
  const { body, account, instrument } = order;
  state.activities.push({
    AccountId: account.AccountId,
    AccountKey: account.AccountKey,
    ActivityTime: new Date(state.now()).toISOString(),
    Amount: order.amount,
    AssetType: instrument.AssetType,
    BuySell: body.BuySell,
    ClientId: account.AccountId,
    CorrelationKey: order.CorrelationKey,
    Duration: body.OrderDuration ?? { DurationType: 'DayOrder' },
    ...(body.ExternalReference !== undefined ? { ExternalReference: body.ExternalReference } : {}),
    HandledBy: 'System',
    LogId: String(state.activities.length + 1_234_567_890),
    OrderId: order.OrderId,
    OrderRelation: order.OrderRelation,
    OrderType: body.OrderType,
    Status: status,
    Uic: instrument.Identifier,
    ...extra,
  });
}

export function newOrder(
  state: FakeState,
  account: FakeAccount,
  checked: CheckedOrder,
  relation: FakeOrder['OrderRelation'],
): FakeOrder {
  state.placedCount += 1;
  return {
    OrderId: state.nextOrderId(),
    account,
    instrument: checked.instrument,
    body: checked.body,
    amount: checked.amount,
    Status: 'Working',
    OrderTime: new Date(state.now()).toISOString(),
    OrderRelation: relation,
    related: [],
    CorrelationKey: randomUUID(),
  };
}

/** A market fill: the position and cash move, the order leaves the open orders. */
export function fill(state: FakeState, order: FakeOrder): void {
  const { account, instrument } = order;
  const price = instrument.price;
  const signed = order.body.BuySell === 'Buy' ? order.amount : -order.amount;
  const key = `${instrument.Identifier}|${instrument.AssetType}`;
  const held = account.positions.get(key) ?? { instrument, amount: 0, price };
  const amount = held.amount + signed;
  if (amount === 0) account.positions.delete(key);
  else account.positions.set(key, { instrument, amount, price });
  const multiplier = instrument.AssetType.endsWith('Option') ? 100 : 1;
  if (!['FxSpot', 'ContractFutures'].includes(instrument.AssetType)) account.cash -= signed * price * multiplier;
  state.open.delete(order.OrderId);
  const positionId = String(212_345_678 + account.positions.size);
  logActivity(state, order, 'FinalFill', {
    AveragePrice: price,
    ExecutionPrice: price,
    FillAmount: order.amount,
    FilledAmount: order.amount,
    PositionId: positionId,
  });
}

/** An open order as GET /port/v1/orders shows it (read-side names: OpenOrderType, Duration, Price). */
export function openOrderView(order: FakeOrder): Json {
  const { body, account, instrument } = order;
  return {
    AccountId: account.AccountId,
    AccountKey: account.AccountKey,
    Amount: order.amount,
    AssetType: instrument.AssetType,
    BuySell: body.BuySell,
    CalculationReliability: 'Ok',
    ClientKey: account.ClientKey,
    CorrelationKey: order.CorrelationKey,
    CurrentPrice: instrument.price,
    CurrentPriceDelayMinutes: 0,
    CurrentPriceType: 'Ask',
    DistanceToMarket: Math.abs(Number(body.OrderPrice ?? instrument.price) - instrument.price),
    Duration: body.OrderDuration ?? { DurationType: 'DayOrder' },
    ...(body.ExternalReference !== undefined ? { ExternalReference: body.ExternalReference } : {}),
    IsMarketOpen: true,
    MarketPrice: instrument.price,
    OpenOrderType: body.OrderType,
    OrderAmountType: 'Quantity',
    OrderId: order.OrderId,
    OrderRelation: order.OrderRelation,
    OrderTime: order.OrderTime,
    Price: body.OrderPrice ?? instrument.price,
    RelatedOpenOrders: order.related.map((id) => ({ OrderId: id })),
    Status: order.Status,
    Uic: instrument.Identifier,
  };
}

export function accountView(account: FakeAccount): Json {
  return {
    AccountGroupKey: account.AccountKey,
    AccountId: account.AccountId,
    AccountKey: account.AccountKey,
    AccountType: 'Normal',
    Active: true,
    ClientId: account.AccountId,
    ClientKey: account.ClientKey,
    Currency: account.Currency,
    CurrencyDecimals: 2,
    IsTrialAccount: true,
    LegalAssetTypes: ['Stock', 'Etf', 'FxSpot', 'ContractFutures', 'StockOption', 'StockIndexOption'],
  };
}
