// The FOREX.com protocol fake's answers in CIAPI's DTO shapes (ciapi-meta.json): positions, working
// and historical orders, trade history, margin and simulated trades. fake.test.ts checks each
// against its DTO.
import { type FakeMarket, marketById, wcfDate } from './fake-market.ts';
import type { Position, WorkingOrder } from './fake-trading.ts';

/** The fake's numbering of applicability (the DTOs carry it as an integer id). */
const APPLICABILITY_ID: Record<string, number> = { gfd: 1, gtc: 2, gtd: 3 };
const USD_CURRENCY_ID = 11;

export function fakeDtos(tradingAccountId: number, currency: string) {
  const nameOf = (marketId: number) => marketById(marketId)?.Name ?? '';
  return {
    tradeOrder: (position: Position) => ({
      OrderId: position.OrderId,
      AutoRollover: false,
      MarketId: position.MarketId,
      Direction: position.Direction,
      Quantity: position.Quantity,
      Price: position.Price,
      TradingAccountId: tradingAccountId,
      CurrencyId: USD_CURRENCY_ID,
      StatusId: 3,
      TypeId: 1,
      IfDone: [],
      OcoOrder: null,
      ParentOrderId: null,
      LastChangedDateTimeUTC: wcfDate(position.at),
    }),
    stopLimitOrder: (order: WorkingOrder) => ({
      OrderId: order.OrderId,
      AutoRollover: false,
      MarketId: order.MarketId,
      Direction: order.Direction,
      Quantity: order.Quantity,
      Price: null,
      TradingAccountId: tradingAccountId,
      CurrencyId: USD_CURRENCY_ID,
      StatusId: order.StatusId,
      TypeId: order.TypeId,
      IfDone: [],
      OcoOrder: null,
      Guaranteed: false,
      TriggerPrice: order.TriggerPrice,
      ExpiryDateTimeUTC: null,
      Applicability: order.Applicability,
      ParentOrderId: order.ParentOrderId,
    }),
    activeStopLimitOrder: (order: WorkingOrder) => ({
      OrderId: order.OrderId,
      ParentOrderId: order.ParentOrderId,
      MarketId: order.MarketId,
      MarketName: nameOf(order.MarketId),
      Direction: order.Direction,
      Quantity: order.Quantity,
      TriggerPrice: order.TriggerPrice,
      TradingAccountId: tradingAccountId,
      Type: order.TypeId,
      Applicability: APPLICABILITY_ID[order.Applicability] ?? 2,
      ExpiryDateTimeUTC: null,
      Currency: currency,
      Status: order.StatusId,
      StopOrder: null,
      LimitOrder: null,
      OcoOrder: null,
      LastChangedDateTimeUTC: wcfDate(order.changedAt),
    }),
    stopLimitHistory: (order: WorkingOrder) => ({
      OrderId: order.OrderId,
      MarketId: order.MarketId,
      MarketName: nameOf(order.MarketId),
      Direction: order.Direction,
      OriginalQuantity: order.Quantity,
      Price: null,
      TriggerPrice: order.TriggerPrice,
      TradingAccountId: tradingAccountId,
      TypeId: order.TypeId,
      OrderApplicabilityId: APPLICABILITY_ID[order.Applicability] ?? 2,
      Currency: currency,
      StatusId: order.StatusId,
      LastChangedDateTimeUtc: wcfDate(order.changedAt),
      CreatedDateTimeUtc: wcfDate(order.at),
    }),
    openPosition: (position: Position, exits: WorkingOrder[]) => {
      const basic = (order: WorkingOrder | undefined) =>
        order
          ? { Guaranteed: false, OrderId: order.OrderId, TriggerPrice: order.TriggerPrice, Quantity: order.Quantity }
          : null;
      return {
        OrderId: position.OrderId,
        AutoRollover: false,
        MarketId: position.MarketId,
        MarketName: nameOf(position.MarketId),
        Direction: position.Direction,
        Quantity: position.Quantity,
        Price: position.Price,
        TradingAccountId: tradingAccountId,
        Currency: currency,
        Status: 3,
        StopOrder: basic(exits.find((order) => order.TypeId === 2)),
        LimitOrder: basic(exits.find((order) => order.TypeId === 3)),
        LastChangedDateTimeUTC: wcfDate(position.at),
      };
    },
    tradeHistory: (trade: Position, market: FakeMarket, original: number, pnl: number) => ({
      OrderId: trade.OrderId,
      OpeningOrderIds: [],
      MarketId: market.MarketId,
      MarketName: market.Name,
      Direction: trade.Direction,
      OriginalQuantity: original,
      Quantity: trade.Quantity,
      Price: trade.Price,
      TradingAccountId: tradingAccountId,
      Currency: currency,
      RealisedPnl: pnl,
      RealisedPnlCurrency: currency,
      LastChangedDateTimeUtc: wcfDate(trade.at),
      ExecutedDateTimeUtc: wcfDate(trade.at),
    }),
    margin: (cash: number, used: number) => ({
      Cash: cash,
      Margin: used,
      MarginIndicator: used > 0 ? (used / cash) * 100 : 0,
      NetEquity: cash,
      OpenTradeEquity: 0,
      TradeableFunds: cash - used,
      PendingFunds: 0,
      TradingResource: cash - used,
      TotalMarginRequirement: used,
      CurrencyId: USD_CURRENCY_ID,
      CurrencyIsoCode: currency,
    }),
    simulation: (cash: number, used: number, required: number) => ({
      Status: 1,
      StatusReason: 1,
      SimulatedCash: cash,
      ActualCash: cash,
      SimulatedTotalMarginRequirement: used + required,
      ActualTotalMarginRequirement: used,
      CurrencyId: USD_CURRENCY_ID,
      Orders: [{ StatusReason: 1, Status: 3 }],
    }),
  };
}
