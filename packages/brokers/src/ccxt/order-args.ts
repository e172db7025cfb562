// The part of turning an order into createOrder arguments that all four exchanges share:
// side, amount and the prices each order type needs. Exchange specifics stay in the adapters.
import type { Order } from '@router/orders';
import { BrokerError } from '../core/errors.ts';
import type { OrderArgs } from './venue.ts';

export interface BasicOrder {
  side: OrderArgs['side'];
  amount: number;
  limitPrice?: number;
  stopPrice?: number;
}

function positive(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value > 0;
}

export function basicOrder(title: string, order: Order): BasicOrder {
  const side = order.action === 'buy' ? 'buy' : order.action === 'sell' ? 'sell' : undefined;
  if (!side) throw new BrokerError('InvalidOrder', title, `action ${order.action} is not supported`);
  if (!positive(order.quantity)) throw new BrokerError('InvalidOrder', title, 'quantity must be a positive number');
  const needsLimit = order.type === 'limit' || order.type === 'stop_limit';
  const needsStop = order.type === 'stop' || order.type === 'stop_limit';
  if (needsLimit && !positive(order.limit_price))
    throw new BrokerError('InvalidOrder', title, `limit_price is required for ${order.type} orders`);
  if (needsStop && !positive(order.stop_price))
    throw new BrokerError('InvalidOrder', title, `stop_price is required for ${order.type} orders`);
  return {
    side,
    amount: order.quantity,
    ...(needsLimit ? { limitPrice: order.limit_price } : {}),
    ...(needsStop ? { stopPrice: order.stop_price } : {}),
  };
}

/** Refuses what a descriptor does not claim (the validator should have stopped it already). */
export function refuseUnless(title: string, allowed: boolean, what: string): void {
  if (!allowed) throw new BrokerError('InvalidOrder', title, `${what} is not supported`);
}
