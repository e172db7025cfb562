// Orders of the Tradovate protocol fake, checked as Tradovate checks them (WIRE.md §4-§7):
// unknown or mistyped fields are schema violations (HTTP 200 {"violations"}); business refusals
// are HTTP 200 {"failureReason","failureText"}; accepted orders answer {"orderId"} (placeoso
// adds oso1Id/oso2Id, placeoco ocoId). Market orders fill at once at the product's quote;
// bracket exits wait (Suspended) until their entry fills, then work as an OCO pair.
import type { ContractLibrary, FakeContract } from './fake-contracts.ts';

type Json = Record<string, unknown>;

export interface FakeAccount {
  id: number;
  name: string;
  userId: number;
}

export interface FakeOrder {
  id: number;
  accountId: number;
  contractId: number;
  timestamp: string;
  action: 'Buy' | 'Sell';
  ordStatus: string;
  orderType: string;
  orderQty: number;
  price?: number;
  stopPrice?: number;
  timeInForce: string;
  ocoId?: number;
  parentId?: number;
}

export interface FakeCommand {
  id: number;
  orderId: number;
  timestamp: string;
  clOrdId?: string;
  commandType: 'New' | 'Modify' | 'Cancel';
  commandStatus: string;
  senderId: number;
  userSessionId: number;
  isAutomated: boolean;
}

/** An order's terms as placed or last modified (OrderVersion: quantity and prices live here). */
export interface FakeOrderVersion {
  id: number;
  orderId: number;
  orderQty: number;
  orderType: string;
  price?: number;
  stopPrice?: number;
  timeInForce: string;
}

export class FakeAnswer extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super('fake answer');
    this.status = status;
    this.body = body;
  }
}

const ORDER_FIELDS: Record<string, string> = {
  accountSpec: 'string',
  accountId: 'integer',
  clOrdId: 'string',
  action: 'string',
  symbol: 'string',
  orderQty: 'integer',
  orderType: 'string',
  price: 'number',
  stopPrice: 'number',
  maxShow: 'integer',
  pegDifference: 'number',
  timeInForce: 'string',
  expireTime: 'string',
  text: 'string',
  activationTime: 'string',
  customTag50: 'string',
  isAutomated: 'boolean',
};
const RESTRAINED_FIELDS = [
  'action',
  'clOrdId',
  'orderType',
  'price',
  'stopPrice',
  'maxShow',
  'pegDifference',
  'timeInForce',
  'expireTime',
  'text',
];
/** What /order/modifyorder takes besides orderId: a working order's terms, not its side. */
const MODIFY_FIELDS = [
  ...RESTRAINED_FIELDS.filter((field) => field !== 'action'),
  'orderQty',
  'activationTime',
  'customTag50',
  'isAutomated',
];
const TYPES = ['Market', 'Limit', 'Stop', 'StopLimit', 'MIT', 'TrailingStop', 'TrailingStopLimit', 'QTS'];
const TIFS = ['Day', 'GTC', 'GTD', 'IOC', 'FOK'];
const MAX_POSITION = 50;

const fits = (value: unknown, type: string) =>
  type === 'integer' ? Number.isInteger(value) : type === 'number' ? typeof value === 'number' : typeof value === type;
const failure = (failureReason: string, failureText: string) => new FakeAnswer(200, { failureReason, failureText });

/** Schema check of an order body (extra members allowed: `extra`); violations as Tradovate lists them. */
function violationsOf(body: Json, fields: readonly string[], required: readonly string[]): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const type = ORDER_FIELDS[key];
    if (!fields.includes(key) || !type) found.push(`${key}: unknown property`);
    else if (!fits(value, type)) found.push(`${key}: ${type} expected`);
  }
  for (const key of required) if (body[key] === undefined) found.push(`${key}: required`);
  if (body.action !== undefined && body.action !== 'Buy' && body.action !== 'Sell') found.push('action: Buy or Sell');
  if (body.orderType !== undefined && !TYPES.includes(String(body.orderType))) found.push('orderType: unknown value');
  if (body.timeInForce !== undefined && !TIFS.includes(String(body.timeInForce)))
    found.push('timeInForce: unknown value');
  return found;
}

function checkPrices(body: Json): void {
  const type = String(body.orderType);
  if (['Limit', 'StopLimit', 'MIT'].includes(type) && !((body.price as number) > 0))
    throw failure('InvalidPrice', `${type} order needs a price`);
  if (['Stop', 'StopLimit'].includes(type) && !((body.stopPrice as number) > 0))
    throw failure('InvalidPrice', `${type} order needs a stopPrice`);
  if (body.timeInForce === 'GTD' && typeof body.expireTime !== 'string')
    throw failure('UnknownReason', 'GTD order needs an expireTime');
}

/** When the order of the published examples (seedPublished) was entered. */
export const PUBLISHED_ORDER_AT = '2026-06-09T14:31:02.112Z';

export function createFakeBook(library: ContractLibrary, accounts: FakeAccount[], now: () => number) {
  const orders: FakeOrder[] = [];
  const commands: FakeCommand[] = [];
  const versions: FakeOrderVersion[] = [];
  const fills: Array<{
    id: number;
    orderId: number;
    contractId: number;
    timestamp: string;
    action: string;
    qty: number;
    price: number;
  }> = [];
  const positions = new Map<string, { accountId: number; contractId: number; netPos: number; netPrice: number }>();
  /** ExecutionReports of exchange rejections (GET /executionReport/deps). */
  const reports: Json[] = [];
  let nextOrder = 8_812_345_678;
  let nextCommand = 9_900_000_001;
  let nextVersion = 7_700_000_001;
  const at = () => new Date(now()).toISOString();

  function version(order: FakeOrder): void {
    const { id: orderId, orderQty, orderType, price, stopPrice, timeInForce } = order;
    versions.push({
      id: nextVersion++,
      orderId,
      orderQty,
      orderType,
      ...(price !== undefined ? { price } : {}),
      ...(stopPrice !== undefined ? { stopPrice } : {}),
      timeInForce,
    });
  }

  const positionOf = (accountId: number, contractId: number) => positions.get(`${accountId}:${contractId}`);

  function fill(order: FakeOrder, contract: FakeContract): void {
    const price = order.price ?? library.quoteOf(contract);
    order.ordStatus = 'Filled';
    fills.push({
      id: fills.length + 1,
      orderId: order.id,
      contractId: contract.id,
      timestamp: at(),
      action: order.action,
      qty: order.orderQty,
      price,
    });
    const key = `${order.accountId}:${contract.id}`;
    const held = positions.get(key) ?? {
      accountId: order.accountId,
      contractId: contract.id,
      netPos: 0,
      netPrice: price,
    };
    held.netPos += order.action === 'Buy' ? order.orderQty : -order.orderQty;
    held.netPrice = price;
    positions.set(key, held);
    // Exits waiting for this entry start working.
    for (const child of orders)
      if (child.parentId === order.id && child.ordStatus === 'Suspended') child.ordStatus = 'Working';
  }

  function account(body: Json, userId: number): FakeAccount {
    const found = accounts.find((item) => item.id === body.accountId && item.userId === userId);
    if (!found) throw new FakeAnswer(404, 'Account not found');
    if (found.name !== body.accountSpec) throw failure('UnknownReason', 'accountSpec does not match accountId');
    return found;
  }

  function newOrder(
    fields: Json,
    base: { accountId: number; contractId: number; orderQty: number },
    session: number,
    userId: number,
    clOrdId?: unknown,
    status = 'Working',
  ): FakeOrder {
    const order: FakeOrder = {
      id: nextOrder++,
      ...base,
      timestamp: at(),
      action: fields.action as 'Buy' | 'Sell',
      ordStatus: status,
      orderType: String(fields.orderType),
      ...(typeof fields.price === 'number' ? { price: fields.price } : {}),
      ...(typeof fields.stopPrice === 'number' ? { stopPrice: fields.stopPrice } : {}),
      timeInForce: String(fields.timeInForce ?? 'Day'),
    };
    orders.push(order);
    version(order);
    commands.push({
      id: nextCommand++,
      orderId: order.id,
      timestamp: order.timestamp,
      ...(typeof clOrdId === 'string' ? { clOrdId } : {}),
      commandType: 'New',
      commandStatus: 'RiskPassed',
      senderId: userId,
      userSessionId: session,
      isAutomated: true,
    });
    return order;
  }

  /** placeorder, placeoso (`extra` bracket1/bracket2) and placeoco (`other`). */
  function place(body: Json, kind: 'order' | 'oso' | 'oco', userId: number, session: number): Json {
    const extras = kind === 'oso' ? ['bracket1', 'bracket2'] : kind === 'oco' ? ['other'] : [];
    const { bracket1, bracket2, other, ...entry } = body;
    const linked = [bracket1, bracket2, other].filter((item) => item !== undefined) as Json[];
    const violations = violationsOf(entry, Object.keys(ORDER_FIELDS), [
      'accountSpec',
      'accountId',
      'action',
      'symbol',
      'orderQty',
      'orderType',
    ]);
    for (const key of Object.keys(body))
      if (!(key in ORDER_FIELDS) && !extras.includes(key)) violations.push(`${key}: unknown property`);
    if (kind === 'oso' && bracket1 === undefined) violations.push('bracket1: required');
    if (kind === 'oco' && other === undefined) violations.push('other: required');
    for (const item of linked) violations.push(...violationsOf(item, RESTRAINED_FIELDS, ['action', 'orderType']));
    if (entry.isAutomated !== true) violations.push('isAutomated: true required for orders not entered by a person');
    if (violations.length) throw new FakeAnswer(200, { violations: [...new Set(violations)] });
    const owner = account(entry, userId);
    const contract = library.byName(String(entry.symbol));
    if (!contract) throw failure('InvalidContract', `Unknown symbol ${String(entry.symbol)}`);
    for (const item of [entry, ...linked]) checkPrices(item);
    if (kind === 'oso' && linked.some((item) => item.action === entry.action))
      throw failure('UnknownReason', 'bracket orders must be on the other side of the entry');
    const qty = entry.orderQty as number;
    if (!(qty > 0)) throw failure('UnknownReason', 'orderQty must be positive');
    const held = positionOf(owner.id, contract.id)?.netPos ?? 0;
    if (Math.abs(held + (entry.action === 'Buy' ? qty : -qty)) > MAX_POSITION)
      throw failure('MaxPosLimitReached', `Max position limit of ${MAX_POSITION} reached`);
    const base = { accountId: owner.id, contractId: contract.id, orderQty: qty };
    const main = newOrder(entry, base, session, userId, entry.clOrdId);
    const rest = linked.map((item) =>
      newOrder(item, base, session, userId, item.clOrdId, kind === 'oso' ? 'Suspended' : 'Working'),
    );
    const [first, second] = rest;
    // The two exits of a bracket, or the order and `other` of an OCO, cancel each other.
    const pair = kind === 'oco' ? [main, first] : [first, second];
    if (pair[0] && pair[1]) {
      pair[0].ocoId = pair[1].id;
      pair[1].ocoId = pair[0].id;
    }
    if (kind === 'oso') for (const item of rest) item.parentId = main.id;
    if (main.orderType === 'Market') fill(main, contract);
    if (kind === 'oso') return { orderId: main.id, oso1Id: rest[0]?.id, ...(rest[1] ? { oso2Id: rest[1].id } : {}) };
    if (kind === 'oco') return { orderId: main.id, ocoId: rest[0]?.id };
    return { orderId: main.id };
  }

  function cancel(body: Json, userId: number, session: number): Json {
    const violations = Object.keys(body)
      .filter((key) => !['orderId', 'clOrdId', 'activationTime', 'customTag50', 'isAutomated'].includes(key))
      .map((key) => `${key}: unknown property`);
    if (!Number.isInteger(body.orderId)) violations.push('orderId: integer required');
    if (violations.length) throw new FakeAnswer(200, { violations });
    const order = orders.find((item) => item.id === body.orderId);
    if (!order || !accounts.some((item) => item.id === order.accountId && item.userId === userId))
      throw new FakeAnswer(404, 'Order not found');
    if (!['Working', 'Suspended', 'PendingNew'].includes(order.ordStatus))
      throw failure('TooLate', `Order is already ${order.ordStatus}`);
    order.ordStatus = 'Canceled';
    const command: FakeCommand = {
      id: nextCommand++,
      orderId: order.id,
      timestamp: at(),
      commandType: 'Cancel',
      commandStatus: 'ExecutionStopped',
      senderId: userId,
      userSessionId: session,
      isAutomated: body.isAutomated === true,
    };
    commands.push(command);
    return { commandId: command.id };
  }

  /** POST /order/modifyorder: a working order's quantity, prices or time in force (a new OrderVersion). */
  function modify(body: Json, userId: number, session: number): Json {
    const { orderId, ...fields } = body;
    const violations = violationsOf(fields, MODIFY_FIELDS, ['orderQty', 'orderType']);
    if (!Number.isInteger(orderId)) violations.push('orderId: integer required');
    if (violations.length) throw new FakeAnswer(200, { violations });
    const order = orders.find((item) => item.id === orderId);
    if (!order || !accounts.some((item) => item.id === order.accountId && item.userId === userId))
      throw new FakeAnswer(404, 'Order not found');
    if (!['Working', 'Suspended', 'PendingNew'].includes(order.ordStatus))
      throw failure('TooLate', `Order is already ${order.ordStatus}`);
    checkPrices(fields);
    if (!((fields.orderQty as number) > 0)) throw failure('UnknownReason', 'orderQty must be positive');
    order.orderQty = fields.orderQty as number;
    order.orderType = String(fields.orderType);
    if (typeof fields.price === 'number') order.price = fields.price;
    if (typeof fields.stopPrice === 'number') order.stopPrice = fields.stopPrice;
    if (typeof fields.timeInForce === 'string') order.timeInForce = fields.timeInForce;
    version(order);
    const command: FakeCommand = {
      id: nextCommand++,
      orderId: order.id,
      timestamp: at(),
      ...(typeof fields.clOrdId === 'string' ? { clOrdId: fields.clOrdId } : {}),
      commandType: 'Modify',
      commandStatus: 'RiskPassed',
      senderId: userId,
      userSessionId: session,
      isAutomated: fields.isAutomated === true,
    };
    commands.push(command);
    return { commandId: command.id };
  }

  function liquidate(body: Json, userId: number, session: number): Json {
    const owner = accounts.find((item) => item.id === body.accountId && item.userId === userId);
    if (!owner) throw new FakeAnswer(404, 'Account not found');
    const contract = library.byId(Number(body.contractId));
    const held = contract ? positionOf(owner.id, contract.id) : undefined;
    if (!contract || !held || held.netPos === 0) throw failure('UnknownReason', 'No position to liquidate');
    for (const order of orders)
      if (
        order.accountId === owner.id &&
        order.contractId === contract.id &&
        ['Working', 'Suspended'].includes(order.ordStatus)
      )
        order.ordStatus = 'Canceled';
    const fields = { action: held.netPos > 0 ? 'Sell' : 'Buy', orderType: 'Market' };
    const order = newOrder(
      fields,
      { accountId: owner.id, contractId: contract.id, orderQty: Math.abs(held.netPos) },
      session,
      userId,
    );
    fill(order, contract);
    return { orderId: order.id };
  }

  const ownedBy = (userId: number) => (item: { accountId: number }) =>
    accounts.some((account) => account.id === item.accountId && account.userId === userId);

  /**
   * The order of the published examples (broker-specs/tradovate/fixtures): order 8812345678,
   * a working ESU6 limit buy entered with clOrdId sig-20260609-0001 (command 9900000001).
   */
  function seedPublished(account: FakeAccount): void {
    const contract = library.byName('ESU6');
    if (!contract) return;
    const timestamp = PUBLISHED_ORDER_AT;
    orders.push({
      id: 8_812_345_678,
      accountId: account.id,
      contractId: contract.id,
      timestamp,
      action: 'Buy',
      ordStatus: 'Working',
      orderType: 'Limit',
      orderQty: 1,
      price: 5400.25,
      timeInForce: 'Day',
    });
    const seeded = orders.at(-1);
    if (seeded) version(seeded);
    commands.push({
      id: 9_900_000_001,
      orderId: 8_812_345_678,
      timestamp: '2026-06-09T14:31:02.110Z',
      clOrdId: 'sig-20260609-0001',
      commandType: 'New',
      commandStatus: 'RiskPassed',
      senderId: account.userId,
      userSessionId: 5_550_001,
      isAutomated: true,
    });
    nextOrder = Math.max(nextOrder, 8_812_345_679);
    nextCommand = Math.max(nextCommand, 9_900_000_002);
  }

  return {
    orders,
    commands,
    seedPublished,
    place,
    cancel,
    modify,
    liquidate,
    ordersOf: (userId: number) => orders.filter(ownedBy(userId)),
    commandsOf: (userId: number) => commands.filter((item) => item.senderId === userId),
    /** GET /orderVersion/deps?masterid={orderId}: the order's versions, the latest last. */
    versionsOf: (userId: number, orderId: number) =>
      orders.some((item) => item.id === orderId && ownedBy(userId)(item))
        ? versions.filter((item) => item.orderId === orderId)
        : [],
    fillsOf: (orderId: number) => fills.filter((item) => item.orderId === orderId),
    reportsOf: (orderId: number) => reports.filter((item) => item.orderId === orderId),
    /** Test support: the exchange rejects an order Tradovate accepted (an ExecutionReport, WIRE.md §5). */
    rejectAtExchange(order: FakeOrder, rejectReason: string, text: string) {
      order.ordStatus = 'Rejected';
      const { id: orderId, action } = order;
      const ordStatus = 'Rejected';
      reports.push({ id: reports.length + 1, orderId, execType: 'Rejected', ordStatus, action, rejectReason, text });
    },
    positionsOf: (userId: number) =>
      [...positions.values()]
        .filter(ownedBy(userId))
        .map((item, index) => ({ id: index + 1, ...item, timestamp: at() })),
    /** Test support: a position held before the test. */
    hold(accountId: number, contract: FakeContract, netPos: number) {
      positions.set(`${accountId}:${contract.id}`, {
        accountId,
        contractId: contract.id,
        netPos,
        netPrice: library.quoteOf(contract),
      });
    },
  };
}

export type FakeBook = ReturnType<typeof createFakeBook>;
