// After a close of part of a position at IBKR: its exits (the contract's working orders on the
// closing side, as GET /iserver/account/orders lists them:
//   {"orderId":1370093240,"conid":272093,"side":"SELL","orderType":"Stop","price":"400.00",
//    "timeInForce":"GTC","outsideRTH":false,"totalSize":10,"filledQuantity":0,"remainingQuantity":10,…})
// larger than what is left are cut to it by modifying them: POST …/order/{orderId} with the full
// ticket again, its quantity what filled plus what is left (WIRE.md §7). An exit whose terms the
// list does not give in full (a stop limit without its auxPrice, a trailing stop) is not guessed
// at: cutting stops there and says so. The close stands whatever happens here.
import type { OrderResponse } from '@router/orders';
import { cutExits } from '../../core/exits-cut.ts';
import { decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import type { AccountCall } from './exits.ts';
import type { Instrument } from './instrument.ts';
import { conidOf } from './instrument.ts';
import { liveOrders } from './lookup.ts';
import { flags, invalid, type Ticket } from './mapper.ts';
import { WORKING_STATUSES } from './reader.ts';
import { modifyTicket } from './submit.ts';

/** The order types of the live orders list (Limit, Stop, Stop Limit, Market) as a ticket's. */
const ORDER_TYPES: Readonly<Record<string, Ticket['orderType']>> = {
  market: 'MKT',
  mkt: 'MKT',
  limit: 'LMT',
  lmt: 'LMT',
  stop: 'STP',
  stp: 'STP',
  'stop limit': 'STOP_LIMIT',
  stop_limit: 'STOP_LIMIT',
};
const TIFS = new Set<string>(['DAY', 'GTC', 'IOC', 'OPG']);

const sizeOf = (order: JsonRecord) =>
  decimalField(order, 'remainingQuantity') ??
  (decimalField(order, 'totalSize') ?? 0) - (decimalField(order, 'filledQuantity') ?? 0);

/** The exit's full ticket again, for `quantity` in all; refused when the list leaves a term out. */
function ticketOf(exit: JsonRecord, id: string, call: AccountCall, instrument: Instrument, quantity: number): Ticket {
  const type = String(exit.orderType ?? '').toLowerCase();
  const orderType = ORDER_TYPES[type];
  const tif = String(exit.timeInForce ?? '').toUpperCase();
  const price = decimalField(exit, 'price');
  const auxPrice = decimalField(exit, 'auxPrice');
  const side = String(exit.side).toUpperCase() === 'BUY' ? 'BUY' : 'SELL';
  const unknown =
    !orderType ||
    !TIFS.has(tif) ||
    (orderType !== 'MKT' && price === undefined) ||
    (orderType === 'STOP_LIMIT' && auxPrice === undefined);
  if (!orderType || unknown)
    throw invalid(`the terms of order ${id} (${type || 'no type'}, ${tif}) are not all listed`);
  return {
    acctId: call.accountId,
    conid: instrument.conid,
    orderType,
    side,
    ...(orderType !== 'MKT' ? { price } : {}),
    ...(orderType === 'STOP_LIMIT' ? { auxPrice } : {}),
    quantity,
    tif: tif as Ticket['tif'],
    outsideRTH: exit.outsideRTH === true,
    ...flags(instrument),
  };
}

/** Cuts the exits on `side` larger than the `left` still held to it; `answer` is the close's. */
export function fitExits(
  call: AccountCall,
  instrument: Instrument,
  side: Ticket['side'],
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const exits = async () =>
    (await liveOrders(call.api, call.ctx, call.session, call.accountId, true)).filter(
      (order) =>
        conidOf(order.conid) === instrument.conid &&
        WORKING_STATUSES.has(String(order.status).toLowerCase()) &&
        String(order.side).toUpperCase() === side &&
        // The close itself, while it works, is no exit.
        stringField(order, 'orderId') !== answer.id &&
        sizeOf(order) > left,
    );
  return cutExits(answer, `the ${left} left`, exits, async (exit) => {
    const id = stringField(exit, 'orderId') ?? '';
    const quantity = (decimalField(exit, 'filledQuantity') ?? 0) + left;
    await modifyTicket(
      call.api,
      call.ctx,
      call.session,
      call.accountId,
      id,
      ticketOf(exit, id, call, instrument, quantity),
    );
    return id;
  });
}
