// How the fake shows its book, in E*TRADE's shapes: an order as the orders list has it
// (broker-specs/etrade/fixtures/orders.response.json), an account as accounts/list has it, a
// portfolio position and a balance (E*TRADE's v1 account reference).
import { type FakeAccount, type FakeOrder, list, multiplier, orderCost, record } from './fake-book.ts';

type Json = Record<string, unknown>;

export function orderView(order: FakeOrder, origin: string): Json {
  const detail = order.order;
  const executed = order.status === 'EXECUTED';
  return {
    orderId: order.orderId,
    details: `${origin}/v1/accounts/${order.accountIdKey}/orders/${order.orderId}.json`,
    orderType: order.orderType,
    OrderDetail: [
      {
        placedTime: order.placedTime,
        orderValue: orderCost(detail, () => 0),
        status: order.status,
        orderTerm: detail.orderTerm,
        priceType: detail.priceType,
        limitPrice: detail.limitPrice ?? 0,
        stopPrice: detail.stopPrice ?? 0,
        marketSession: detail.marketSession,
        allOrNone: detail.allOrNone ?? false,
        netPrice: 0,
        netBid: 0,
        netAsk: 0,
        gcd: 0,
        ratio: '',
        Instrument: list(detail.Instrument).map((instrument, index) => ({
          symbolDescription: String(record(instrument.Product)?.symbol),
          orderAction: instrument.orderAction,
          quantityType: instrument.quantityType,
          orderedQuantity: instrument.quantity,
          estimatedCommission: 0,
          estimatedFees: 0,
          Product: instrument.Product,
          filledQuantity: executed ? Number(instrument.quantity) : (order.filled ?? 0),
          ...(order.fills ? { averageExecutionPrice: order.fills[index] } : {}),
        })),
        ...(order.executedTime ? { executedTime: order.executedTime } : {}),
      },
    ],
  };
}

export function accountView(account: FakeAccount): Json {
  return {
    accountId: account.accountId,
    accountIdKey: account.accountIdKey,
    accountMode: account.accountMode,
    accountDesc: 'INDIVIDUAL',
    accountName: 'Individual Brokerage',
    accountType: 'INDIVIDUAL',
    institutionType: 'BROKERAGE',
    accountStatus: 'ACTIVE',
    closedDate: 0,
  };
}

/** One page of the portfolio: `count` positions a page (default and most 50), `pageNumber` from 1. */
export function portfolioView(
  account: FakeAccount,
  quote: (product: Json | undefined) => number,
  query: { count?: string; pageNumber?: string } = {},
): Json {
  const size = Math.min(50, Math.max(1, Number(query.count) || 50));
  const pageNumber = Math.max(1, Number(query.pageNumber) || 1);
  const all = [...account.positions.values()];
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const positions = all.slice((pageNumber - 1) * size, pageNumber * size).map((position, index) => ({
    positionId: (pageNumber - 1) * size + index + 1,
    symbolDescription: String(position.product.symbol),
    quantity: position.quantity,
    positionType: position.quantity < 0 ? 'SHORT' : 'LONG',
    costPerShare: position.costPerShare,
    pricePaid: position.costPerShare,
    marketValue: position.quantity * quote(position.product) * multiplier(position.product),
    Product: position.product,
  }));
  return {
    PortfolioResponse: {
      AccountPortfolio: [
        {
          accountId: account.accountId,
          Position: positions,
          totalPages,
          ...(pageNumber < totalPages ? { nextPageNo: String(pageNumber + 1) } : {}),
        },
      ],
    },
  };
}

export function balanceView(account: FakeAccount, quote: (product: Json | undefined) => number): Json {
  const held = [...account.positions.values()].reduce(
    (sum, position) => sum + position.quantity * quote(position.product) * multiplier(position.product),
    0,
  );
  return {
    BalanceResponse: {
      accountId: account.accountId,
      accountType: account.accountMode,
      accountDescription: 'INDIVIDUAL',
      Computed: {
        cashAvailableForInvestment: account.cash,
        cashBuyingPower: account.cash,
        marginBuyingPower: account.accountMode === 'MARGIN' ? account.cash * 2 : account.cash,
        RealTimeValues: { totalAccountValue: account.cash + held },
      },
    },
  };
}
