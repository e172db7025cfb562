// What one exchange adds to the shared ccxt broker: its descriptor, ccxt class, credentials,
// how an order becomes createOrder arguments, and how an order is found by our client id.

import type { Order } from '@router/orders';
import type { Order as CcxtOrder, Exchange } from 'ccxt';
import type { BrokerDescriptor } from '../core/broker.ts';
import type { MessageReader } from './errors.ts';
import type { ExchangeClassOf, ExchangeCredentials } from './exchange.ts';
import type { MarketInfo, MarketKind } from './symbols.ts';

/** ccxt createOrder(symbol, type, side, amount, price, params). */
export interface OrderArgs {
  type: string;
  side: 'buy' | 'sell';
  amount: number;
  price?: number;
  params: Record<string, unknown>;
}

export interface CcxtVenue {
  descriptor: BrokerDescriptor & { baseUrl: string };
  exchangeClass: ExchangeClassOf;
  /** ccxt credentials from the values entered under the descriptor's credential names. */
  credentials(values: Readonly<Record<string, string>>): ExchangeCredentials;
  /** Whether loading markets also loads the exchange's currencies. */
  currencies?: boolean;
  /** ccxt options of this exchange. */
  options?: Record<string, unknown>;
  readMessage: MessageReader;
  /**
   * createOrder arguments; throws a BrokerError for what the exchange cannot do. `market` is
   * undefined in a check without the exchange (Broker.checkOrder): what only the market can tell
   * (spot or swap) is left to placing, every other check runs.
   */
  orderArgs(order: Order, market: MarketInfo | undefined, clientOrderId: string): OrderArgs;
  /**
   * Last touches of the createOrder arguments that need the loaded market (Coinbase: a market
   * buy's base_size, which ccxt does not write, on the lot size as ccxt writes every other size).
   */
  onMarket?(exchange: Exchange, market: MarketInfo, args: OrderArgs): OrderArgs;
  /**
   * The createOrder params that carry our client order id, in the exchange's form: a close
   * signal's closing order is sent with them, so it can be found again like any other order.
   */
  clientIdParams(clientOrderId: string): Record<string, unknown>;
  /**
   * The order placed with our client order id, if the exchange has it: asked for by that id
   * (`has.findOrderByClientId`), or found in the orders listed since `since` (`has.listRecentOrders`).
   */
  findByClientId(exchange: Exchange, clientOrderId: string, since?: number): Promise<CcxtOrder | undefined>;
  /** Cancels by order id alone, where ccxt also wants the symbol (WOO). */
  cancel?(exchange: Exchange, orderId: string): Promise<unknown>;
  /**
   * The kind of market a symbol names when the order does not say (`extra.market`): BitMEX trades
   * its perpetual swaps only, though it lists spot pairs of the same names (XBT_USDT beside XBTUSDT).
   */
  defaultKind?: MarketKind;
  /** Whether the exchange has derivative positions (holdings and close read them). */
  positions?: boolean;
  /**
   * Whether an open order's quantity can be amended (ccxt editOrder; BitMEX: PUT /order orderQty):
   * after a close of part of a swap position, the exits sized for the whole are cut to what is left.
   */
  amendsQuantity?: boolean;
  /** Last adjustments of a fresh ccxt instance (Kraken: a nonce that never repeats). */
  configure?(exchange: Exchange): void;
  /** The exchange's testnet is used when the connection says so (credential `sandbox`). */
  sandbox?: boolean;
}
