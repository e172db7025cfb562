// The protocol fake's order life: tickets become orders, marketable ones fill at the contract's
// price (positions, cash and an execution recorded), exits of a bracket wait for their parent,
// unfilled IOC orders are cancelled. Orders and executions are shown in IBKR's shapes (live
// orders, status by id, trades: broker-specs/ibkr/fixtures).
import type { FakeAccount, FakeLeg, FakeOrder, FakeTicket } from './fake-book.ts';
import type { FakeContract } from './fake-market.ts';

export interface FakeExecution {
  orderId: number;
  orderRef?: string;
  account: string;
  contract: FakeContract;
  side: 'BUY' | 'SELL';
  size: number;
  price: number;
  time: number;
}

export interface FakeLedger {
  orders: FakeOrder[];
  executions: FakeExecution[];
  accounts: Map<string, FakeAccount>;
  nextOrderId: number;
}

function move(account: FakeAccount, contract: FakeContract, signed: number, price: number): void {
  const unit = contract.secType === 'BOND' ? contract.multiplier / 100 : contract.multiplier;
  account.cash -= signed * price * unit;
  const held = account.positions.get(contract.conid) ?? { position: 0, avgPrice: price };
  const position = held.position + signed;
  const avgPrice =
    Math.sign(held.position) === Math.sign(signed)
      ? (held.avgPrice * held.position + price * signed) / position
      : price;
  if (position === 0) account.positions.delete(contract.conid);
  else account.positions.set(contract.conid, { position, avgPrice });
}

export function fill(ledger: FakeLedger, order: FakeOrder, price: number, now: number): void {
  const account = ledger.accounts.get(order.account);
  if (!account) return;
  const sign = order.side === 'BUY' ? 1 : -1;
  if (order.legs)
    for (const leg of order.legs) move(account, leg.contract, sign * leg.ratio * order.quantity, leg.contract.price);
  else move(account, order.contract, sign * order.quantity, price);
  Object.assign(order, { status: 'Filled', filled: order.quantity, avgPrice: price });
  ledger.executions.push({
    orderId: order.orderId,
    ...(order.cOID ? { orderRef: order.cOID } : {}),
    account: order.account,
    contract: order.contract,
    side: order.side,
    size: order.quantity,
    price,
    time: now,
  });
  // A filled entry releases its bracket's exits.
  for (const child of ledger.orders)
    if (order.cOID && child.parentId === order.cOID && child.status === 'PreSubmitted') child.status = 'Submitted';
}

/** The price a ticket fills at now, or undefined while it is not marketable. */
function marketable(t: FakeTicket, contract: FakeContract): number | undefined {
  const quote = contract.price;
  const buy = t.side === 'BUY';
  if (t.orderType === 'MKT' || t.orderType === 'MIDPRICE') return quote;
  if (t.orderType === 'LMT' && t.price !== undefined && (buy ? t.price >= quote : t.price <= quote)) return t.price;
  if (t.orderType === 'STP' && t.price !== undefined && (buy ? quote >= t.price : quote <= t.price)) return quote;
  return undefined;
}

export function place(
  ledger: FakeLedger,
  accountId: string,
  tickets: Array<{ ticket: FakeTicket; contract: FakeContract; legs?: FakeLeg[] }>,
  now: number,
): FakeOrder[] {
  const placed = tickets.map(({ ticket, contract, legs }) => {
    const order: FakeOrder = {
      ...ticket,
      orderId: ledger.nextOrderId++,
      account: accountId,
      contract,
      ...(legs ? { legs } : {}),
      status: 'PreSubmitted',
      filled: 0,
      createdAt: now,
    };
    ledger.orders.push(order);
    return order;
  });
  for (const order of placed) {
    if (order.parentId) continue;
    const price = order.legs ? (order.orderType === 'MKT' ? 0 : undefined) : marketable(order, order.contract);
    if (price !== undefined) fill(ledger, order, price, now);
    else if (order.tif === 'IOC') order.status = 'Cancelled';
  }
  return placed;
}

const ORDER_TYPE_NAMES: Record<string, string> = { MKT: 'Market', LMT: 'Limit', STP: 'Stop', STOP_LIMIT: 'Stop Limit' };

/** GET /iserver/account/orders element (fixtures/live-orders.response.json). */
export function liveOrderView(order: FakeOrder) {
  const { contract } = order;
  return {
    acct: order.account,
    account: order.account,
    conid: contract.conid,
    conidex: order.conidex ?? String(contract.conid),
    companyName: contract.name,
    description1: contract.symbol,
    ticker: contract.symbol,
    secType: order.legs ? 'BAG' : contract.secType,
    listingExchange: contract.exchange,
    orderId: order.orderId,
    ...(order.cOID ? { order_ref: order.cOID } : {}),
    orderType: ORDER_TYPE_NAMES[order.orderType] ?? order.orderType,
    origOrderType: (ORDER_TYPE_NAMES[order.orderType] ?? order.orderType).toUpperCase(),
    side: order.side,
    status: order.status,
    order_ccp_status: order.status,
    timeInForce: order.tif,
    outsideRTH: order.outsideRTH ?? false,
    totalSize: order.quantity,
    filledQuantity: order.filled,
    remainingQuantity: order.quantity - order.filled,
    sizeAndFills: `${order.filled}/${order.quantity}`,
    ...(order.price !== undefined ? { price: order.price.toFixed(2) } : {}),
    ...(order.avgPrice !== undefined ? { avgPrice: String(order.avgPrice) } : {}),
    lastExecutionTime_r: order.createdAt,
  };
}

/** GET /iserver/account/order/status/{orderId} (fixtures/order-status.response.json). */
export function orderStatusView(order: FakeOrder) {
  const { contract } = order;
  return {
    account: order.account,
    conid: contract.conid,
    symbol: contract.symbol,
    sec_type: contract.secType,
    company_name: contract.name,
    order_id: order.orderId,
    order_status: order.status,
    order_type: (ORDER_TYPE_NAMES[order.orderType] ?? order.orderType).toUpperCase(),
    side: order.side === 'BUY' ? 'B' : 'S',
    tif: order.tif,
    total_size: order.quantity.toFixed(1),
    cum_fill: order.filled.toFixed(1),
    size: (order.quantity - order.filled).toFixed(1),
    ...(order.avgPrice !== undefined ? { average_price: String(order.avgPrice) } : {}),
    currency: contract.currency,
    listing_exchange: contract.exchange,
  };
}

/** GET /iserver/account/trades element. */
export function tradeView(execution: FakeExecution, index: number) {
  const { contract } = execution;
  return {
    execution_id: `0000e0d5.${index.toString(16).padStart(8, '0')}.01.01`,
    account: execution.account,
    accountCode: execution.account,
    conid: contract.conid,
    symbol: contract.symbol,
    sec_type: contract.secType,
    order_id: execution.orderId,
    ...(execution.orderRef ? { order_ref: execution.orderRef } : {}),
    side: execution.side === 'BUY' ? 'B' : 'S',
    size: execution.size,
    price: String(execution.price),
    trade_time_r: execution.time,
    exchange: contract.exchange,
  };
}
