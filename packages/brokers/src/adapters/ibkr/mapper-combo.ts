// A multi-leg order as one IBKR combo ticket (WIRE.md §4, IBKR Campus "combo orders"):
//   {"acctId":"DU123456","conidex":"28812380;;;723417891/1,723417888/-1","cOID":"sig-1","orderType":"LMT",
//    "side":"BUY","price":-1.25,"quantity":1,"tif":"DAY","outsideRTH":false}
// 28812380 is IBKR's USD spread contract; each leg is conid/ratio, the ratio's sign its side, the
// ratios the leg quantities over their greatest common divisor, which is the combo's quantity.
// The net price may be negative (a credit).
import type { Order, OrderLeg } from '@router/orders';
import type { Instrument } from './instrument.ts';
import { invalid, priced, sideOf, type Ticket, timeInForce } from './mapper.ts';

export const USD_SPREAD_CONID = 28812380;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The legs' own checks, before any contract is looked up. */
function checkLegs(order: Order, legs: OrderLeg[]): void {
  if (order.group !== 'combo') throw invalid(`group ${order.group} with legs is not supported; use combo`);
  if (order.take_profit_price !== undefined || order.stop_loss_price !== undefined)
    throw invalid('a combo takes no take profit or stop loss');
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('a combo is a market or limit order');
  for (const [index, leg] of legs.entries()) {
    if (leg.class !== 'option' && leg.class !== 'stock')
      throw invalid(`leg ${index + 1}: combos take options and stocks`);
    if (leg.type !== undefined || leg.limit_price !== undefined)
      throw invalid('legs take no type or price: give the net price as limit_price');
    if (!Number.isInteger(leg.quantity) || leg.quantity <= 0)
      throw invalid(`leg ${index + 1}: quantity must be a whole number`);
  }
}

/**
 * The combo ticket: the legs, prices and duration checked now, before any contract is looked up
 * (Broker.checkOrder stops here); the legs' currency once their contracts are known.
 */
export function comboTicket(
  order: Order,
  legs: OrderLeg[],
  clientOrderId: string,
): (instruments: Instrument[], accountId: string) => Ticket {
  const tif = timeInForce(order);
  const { orderType, ...prices } = priced(order);
  checkLegs(order, legs);
  const unit = legs.reduce((divisor, leg) => gcd(divisor, leg.quantity), 0);
  return (instruments, accountId) => {
    for (const [index, instrument] of instruments.entries())
      if (instrument.currency !== 'USD') throw invalid(`leg ${index + 1}: combos are sent in USD only`);
    const parts = legs.map((leg, index) => {
      const ratio = (leg.quantity / unit) * (sideOf(leg.action) === 'BUY' ? 1 : -1);
      return `${instruments[index]?.conid}/${ratio}`;
    });
    return {
      acctId: accountId,
      conidex: `${USD_SPREAD_CONID};;;${parts.join(',')}`,
      cOID: clientOrderId,
      orderType,
      side: 'BUY',
      ...prices,
      quantity: unit,
      ...tif,
    };
  };
}
