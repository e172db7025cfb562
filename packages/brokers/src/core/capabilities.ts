// What a broker can do, declared once in its descriptor (ccxt's `has`), and the summary screens
// show. Callers never branch on a broker's name: core/find-order.ts picks a lookup route from
// `has`, and core/descriptor.test.ts fails when a declaration and the adapter disagree.
import {
  DURATIONS,
  type Duration,
  type OrderClass,
  type OrderType,
  providerClasses,
  providerTypes,
} from '@router/orders';
import type { BrokerDescriptor } from './broker.ts';

/** true: the broker's API does it; 'emulated': the adapter builds it from other calls; false: absent. */
export type Capability = true | false | 'emulated';

export interface BrokerCapabilities {
  previewOrder: Capability;
  cancelOrder: Capability;
  closePosition: Capability;
  getHoldings: Capability;
  refresh: Capability;
  /** The broker stores our client order id and finds an order by it. */
  findOrderByClientId: Capability;
  findOrderByBrokerId: Capability;
  /** Only a list of recent orders, matched by echoed client id or by terms and time. */
  listRecentOrders: Capability;
  /** The broker itself refuses (or answers with the first) a second order with the same id or key. */
  idempotencyKey: boolean;
  brackets: boolean;
  multiLeg: boolean;
  /**
   * The broker quotes a symbol's last price (`Broker.lastPrice`): what a market order is valued
   * at for a webhook's maxNotional. Optional, so a descriptor without it declares false.
   */
  lastPrice?: Capability;
  /**
   * Deleting the connection stops something running at the broker's side (`Broker.disconnect`).
   * Optional, so a descriptor without it declares false.
   */
  disconnect?: Capability;
}

/** A broker that only connects and places orders; spread and override what it has. */
export const NO_CAPABILITIES: Readonly<BrokerCapabilities> = Object.freeze({
  previewOrder: false,
  cancelOrder: false,
  closePosition: false,
  getHoldings: false,
  refresh: false,
  findOrderByClientId: false,
  findOrderByBrokerId: false,
  listRecentOrders: false,
  idempotencyKey: false,
  brackets: false,
  multiLeg: false,
  lastPrice: false,
  disconnect: false,
});

/** The Broker method (or lookup primitive) behind each callable capability. */
export const CAPABILITY_METHODS = {
  previewOrder: 'previewOrder',
  cancelOrder: 'cancelOrder',
  closePosition: 'closePosition',
  getHoldings: 'getHoldings',
  refresh: 'refresh',
  findOrderByClientId: 'findByClientId',
  findOrderByBrokerId: 'findByBrokerId',
  listRecentOrders: 'listRecentOrders',
  lastPrice: 'lastPrice',
  disconnect: 'disconnect',
} as const;

/** What the broker accepts as a client order id; null: it keeps none. */
export interface ClientOrderIdRule {
  maxLength: number;
  /** A regular expression (source) the whole id must match. */
  pattern: string;
  /**
   * false: the broker takes the id (and refuses it twice) but never returns it, so a lost order is
   * found by its terms, as at a broker that keeps none (E*TRADE). Default true.
   */
  echoed?: boolean;
}

/** Whether the broker's order lists carry our client order id (else only terms can be compared). */
export function echoesClientOrderId(descriptor: Pick<BrokerDescriptor, 'clientOrderId'>): boolean {
  return descriptor.clientOrderId !== null && descriptor.clientOrderId.echoed !== false;
}

/** One row of the brokers table (README via `npm run brokers`, screens): drawn from the descriptor. */
export interface BrokerSummary {
  classes: OrderClass[];
  orderTypes: OrderType[];
  durations: Duration[];
  brackets: boolean;
  multiLeg: boolean;
  clientOrderId: boolean;
}

export function summarize(descriptor: BrokerDescriptor): BrokerSummary {
  const { reference, has } = descriptor;
  const durations = reference.duration?.values ?? ['day'];
  return {
    classes: providerClasses(reference),
    orderTypes: providerTypes(reference),
    durations: DURATIONS.filter((duration) => durations.includes(duration)),
    brackets: has.brackets,
    multiLeg: has.multiLeg,
    clientOrderId: descriptor.clientOrderId !== null,
  };
}
