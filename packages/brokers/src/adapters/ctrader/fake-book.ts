// The fake's trading accounts, symbols and order book, in the Open API's own shapes (ProtoOAOrder,
// ProtoOAPosition, ProtoOADeal, as JSON with enums and int64 as numbers). Seeded from
// broker-specs/ctrader/fixtures: the two accounts of account-list.response.json, EUR/USD as
// symbol 1, and the open position and pending order of reconcile.response.json.
import type { JsonRecord } from '../../core/json-read.ts';

export interface FakeAccount {
  ctidTraderAccountId: number;
  isLive: boolean;
  traderLogin: number;
  brokerTitleShort: string;
  /** Cents of the deposit currency (moneyDigits 2). */
  balance: number;
  /** The deposit currency, an asset of FAKE_ASSETS. */
  depositAssetId: number;
}

/** The assets ProtoOAAssetListReq lists (ProtoOAAsset: assetId, name, displayName, digits). */
export const FAKE_ASSETS = [
  { assetId: 1, name: 'USD', displayName: 'US Dollar', digits: 2 },
  { assetId: 2, name: 'EUR', displayName: 'Euro', digits: 2 },
  { assetId: 3, name: 'XAU', displayName: 'Gold', digits: 2 },
] as const;

export interface FakeSymbol {
  symbolId: number;
  symbolName: string;
  digits: number;
  pipPosition: number;
  minVolume: number;
  stepVolume: number;
  maxVolume: number;
  quote: number;
}

export const FAKE_ACCOUNTS: readonly FakeAccount[] = [
  {
    ctidTraderAccountId: 44533070,
    isLive: false,
    traderLogin: 5021377,
    brokerTitleShort: 'DemoBroker',
    balance: 10_000_00,
    depositAssetId: 1,
  },
  {
    ctidTraderAccountId: 44533071,
    isLive: true,
    traderLogin: 3017755,
    brokerTitleShort: 'LiveBroker',
    balance: 10_000_00,
    depositAssetId: 2,
  },
];

/** Volumes in hundredths of a unit: EUR/USD trades from 1,000 units in steps of 1,000. */
export const FAKE_SYMBOLS: readonly FakeSymbol[] = [
  {
    symbolId: 1,
    symbolName: 'EUR/USD',
    digits: 5,
    pipPosition: 4,
    minVolume: 100_000,
    stepVolume: 100_000,
    maxVolume: 10_000_000_000,
    quote: 1.08512,
  },
  {
    symbolId: 41,
    symbolName: 'XAUUSD',
    digits: 2,
    pipPosition: 1,
    minVolume: 100,
    stepVolume: 100,
    maxVolume: 10_000_000,
    quote: 2650.5,
  },
  {
    symbolId: 10026,
    symbolName: 'BTCUSD',
    digits: 2,
    pipPosition: 0,
    minVolume: 1,
    stepVolume: 1,
    maxVolume: 10_000,
    quote: 97_000,
  },
  // An index and a share CFD, as brokers list them in cTrader: whole units.
  {
    symbolId: 10013,
    symbolName: 'US500',
    digits: 1,
    pipPosition: 0,
    minVolume: 100,
    stepVolume: 100,
    maxVolume: 1_000_000,
    quote: 5900,
  },
  {
    symbolId: 20001,
    symbolName: 'AAPL',
    digits: 2,
    pipPosition: 2,
    minVolume: 100,
    stepVolume: 100,
    maxVolume: 1_000_000,
    quote: 230,
  },
];

/** Leverage the fake's margin check assumes (1:100). */
const LEVERAGE = 100;

export class FakeBook {
  readonly orders = new Map<number, JsonRecord>();
  readonly positions = new Map<number, JsonRecord>();
  readonly deals = new Map<number, JsonRecord[]>();
  /** Orders created by ProtoOANewOrderReq (the seeded ones are not counted). */
  placed = 0;
  private nextOrderId = 68_412_400;
  private nextPositionId = 39_876_600;
  private nextDealId = 51_234_600;

  readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
    const seeded = 44533070;
    this.positions.set(39876543, {
      positionId: 39876543,
      tradeData: { symbolId: 1, volume: 100000, tradeSide: 1, openTimestamp: 1732447200123, label: 'signal-bot' },
      positionStatus: 1,
      swap: 0,
      price: 1.08512,
      stopLoss: 1.08012,
      takeProfit: 1.09512,
      moneyDigits: 2,
      account: seeded,
    });
    this.orders.set(68412399, {
      orderId: 68412399,
      tradeData: { symbolId: 1, volume: 1000000, tradeSide: 2, openTimestamp: 1732447300000 },
      orderType: 2,
      orderStatus: 1,
      limitPrice: 1.0855,
      stopLoss: 1.0905,
      takeProfit: 1.0755,
      timeInForce: 1,
      expirationTimestamp: 1732579200000,
      clientOrderId: 'sig-20241124-0043',
      account: seeded,
    });
  }

  symbol(symbolId: number): FakeSymbol | undefined {
    return FAKE_SYMBOLS.find((symbol) => symbol.symbolId === symbolId);
  }

  /** What an account may spend on margin now (cents). */
  freeMargin(account: FakeAccount): number {
    let used = 0;
    for (const position of this.positions.values()) {
      if (position.account !== account.ctidTraderAccountId) continue;
      const trade = position.tradeData as { volume: number };
      used += (trade.volume / 100) * Number(position.price) * (100 / LEVERAGE);
    }
    return account.balance - used;
  }

  marginOf(symbol: FakeSymbol, volume: number): number {
    return (volume / 100) * symbol.quote * (100 / LEVERAGE);
  }

  newOrder(account: number, request: JsonRecord): JsonRecord {
    const orderId = this.nextOrderId++;
    this.placed += 1;
    const { symbolId, volume, tradeSide, label, comment } = request;
    const order: JsonRecord = {
      orderId,
      tradeData: {
        symbolId,
        volume,
        tradeSide,
        openTimestamp: this.now(),
        ...(label !== undefined ? { label } : {}),
        ...(comment !== undefined ? { comment } : {}),
      },
      orderType: request.orderType,
      orderStatus: 1,
      utcLastUpdateTimestamp: this.now(),
      timeInForce: request.timeInForce ?? (request.orderType === 1 ? 3 : 2),
      account,
    };
    for (const field of [
      'limitPrice',
      'stopPrice',
      'stopLoss',
      'takeProfit',
      'relativeStopLoss',
      'relativeTakeProfit',
      'expirationTimestamp',
      'slippageInPoints',
      'clientOrderId',
      'positionId',
    ]) {
      if (request[field] !== undefined) order[field] = request[field];
    }
    this.orders.set(orderId, order);
    return order;
  }

  /** Fills `order` at the symbol's quote: a new position, or the one it closes. */
  fill(order: JsonRecord, price: number): { position: JsonRecord; deal: JsonRecord } {
    const trade = order.tradeData as { symbolId: number; volume: number; tradeSide: number };
    const closing = order.closingOrder === true;
    let position = closing ? this.positions.get(Number(order.positionId)) : undefined;
    if (!position) {
      const positionId = this.nextPositionId++;
      position = {
        positionId,
        tradeData: { ...trade, openTimestamp: this.now() },
        positionStatus: 1,
        swap: 0,
        price,
        moneyDigits: 2,
        account: order.account,
      };
      const sign = trade.tradeSide === 1 ? 1 : -1;
      if (order.relativeStopLoss !== undefined)
        position.stopLoss = price - (sign * Number(order.relativeStopLoss)) / 100_000;
      if (order.relativeTakeProfit !== undefined)
        position.takeProfit = price + (sign * Number(order.relativeTakeProfit)) / 100_000;
      this.positions.set(positionId, position);
    } else {
      const held = position.tradeData as { volume: number };
      held.volume -= trade.volume;
      if (held.volume <= 0) {
        position.positionStatus = 2;
        this.positions.delete(Number(position.positionId));
      }
    }
    Object.assign(order, {
      orderStatus: 2,
      executionPrice: price,
      executedVolume: trade.volume,
      positionId: position.positionId,
      utcLastUpdateTimestamp: this.now(),
    });
    const deal: JsonRecord = {
      dealId: this.nextDealId++,
      orderId: order.orderId,
      positionId: position.positionId,
      volume: trade.volume,
      filledVolume: trade.volume,
      symbolId: trade.symbolId,
      createTimestamp: this.now(),
      executionTimestamp: this.now(),
      executionPrice: price,
      tradeSide: trade.tradeSide,
      dealStatus: 2,
      moneyDigits: 2,
    };
    this.deals.set(Number(order.orderId), [deal]);
    return { position, deal };
  }

  /** A market order closing `volume` of a position (ProtoOAClosePositionReq). */
  closingOrder(position: JsonRecord, volume: number): JsonRecord {
    const trade = position.tradeData as { symbolId: number; tradeSide: number };
    const orderId = this.nextOrderId++;
    const order: JsonRecord = {
      orderId,
      tradeData: {
        symbolId: trade.symbolId,
        volume,
        tradeSide: trade.tradeSide === 1 ? 2 : 1,
        openTimestamp: this.now(),
      },
      orderType: 1,
      orderStatus: 1,
      closingOrder: true,
      positionId: position.positionId,
      timeInForce: 3,
      account: position.account,
    };
    this.orders.set(orderId, order);
    return order;
  }

  /** The order or position as the wire carries it (without the fake's own account field). */
  static wire(entity: JsonRecord): JsonRecord {
    const { account: _account, ...rest } = entity;
    return structuredClone(rest);
  }
}
