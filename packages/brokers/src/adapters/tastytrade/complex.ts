// Brackets as tastytrade complex orders (POST /accounts/{n}/complex-orders): the entry is the
// trigger-order, the exits are `orders`, placed when it fills; with two exits (OTOCO) one
// cancels the other, with one it is an OTO. As broker-specs/tastytrade/fixtures builds it:
//   {"type":"OTOCO","trigger-order":{…entry…},"orders":[
//     {"time-in-force":"GTC","order-type":"Limit","price":"185.00","price-effect":"Credit","legs":[…Sell to Close]},
//     {"time-in-force":"GTC","order-type":"Stop","stop-trigger":"170.00","legs":[…Sell to Close]}]}
import type { Order } from '@router/orders';
import { effectOf, legPrice, type TastyLeg, type TastyOrder, toTastyOrder } from './mapper.ts';
import { invalid, isBuy } from './symbols.ts';

export interface TastyComplexOrder {
  type: 'OTOCO' | 'OTO';
  'trigger-order': TastyOrder;
  orders: TastyOrder[];
}

const EXIT_ACTION: Record<string, string> = {
  'Buy to Open': 'Sell to Close',
  'Sell to Open': 'Buy to Close',
  Buy: 'Sell',
  Sell: 'Buy',
};

export const hasExits = (order: Order) => order.take_profit_price !== undefined || order.stop_loss_price !== undefined;

export function toComplexOrder(order: Order, clientOrderId: string): TastyComplexOrder {
  if (order.legs) throw invalid('take profit and stop loss are for single orders, not legs');
  if (order.quantity_type !== 'fixed') throw invalid('take profit and stop loss need a fixed quantity');
  const entry = toTastyOrder(order, clientOrderId);
  const [leg] = entry.legs;
  const action = leg ? EXIT_ACTION[leg.action] : undefined;
  if (!leg || !action) throw invalid(`take profit and stop loss need an opening action, not ${order.action}`);
  const exitLeg: TastyLeg = { ...leg, action };
  const exits: TastyOrder[] = [];
  if (order.take_profit_price !== undefined) {
    exits.push({
      'time-in-force': 'GTC',
      'order-type': 'Limit',
      price: legPrice(order.take_profit_price, leg, isBuy(action)),
      'price-effect': effectOf(action),
      legs: [exitLeg],
    });
  }
  if (order.stop_loss_price !== undefined) {
    exits.push({
      'time-in-force': 'GTC',
      'order-type': 'Stop',
      'stop-trigger': legPrice(order.stop_loss_price, leg, isBuy(action)),
      legs: [exitLeg],
    });
  }
  return { type: exits.length === 2 ? 'OTOCO' : 'OTO', 'trigger-order': entry, orders: exits };
}
