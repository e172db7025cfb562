// Orders of the Questrade protocol fake, checked as Questrade checks them (WIRE.md §4-§8).
// General errors are non-2xx {"code","message"} (3139 "Invalid route" as in Questrade's sample;
// other codes here are illustrative); an order Questrade creates and then rejects (buying power)
// is HTTP 200 {"code":3054,"message","orderId","orders":[record]}. Records carry Questrade's
// sample fields and spellings (icebergQty, comissionCharged) and times with an offset and
// microseconds. Market orders execute at once; others wait (Accepted); bracket exits are
// ContingentOrder until their entry executes.
import {
  BUY_SIDES,
  COMPONENT_FIELDS,
  checkFields,
  checkRoutes,
  checkTerms,
  FakeAnswer,
  listedSide,
  newRecord,
  OPEN,
  ORDER_FIELDS,
  questradeTime,
  refuse,
  STRATEGIES,
  TIFS,
} from './fake-rules.ts';
import type { FakeSymbols } from './fake-symbols.ts';

type Json = Record<string, unknown>;

export interface FakeAccount {
  number: string;
  type: string;
  cash: number;
}

export function createFakeBook(symbols: FakeSymbols, accounts: FakeAccount[], now: () => number) {
  const records: Json[] = [];
  const positions = new Map<string, { symbolId: number; quantity: number; cost: number }>();
  let nextId = 177_106_006;

  const account = (number: string) => {
    const found = accounts.find((item) => item.number === number);
    if (!found) throw new FakeAnswer(404, { code: 1020, message: 'Account number not found' });
    return found;
  };
  const symbolOf = (id: unknown) => {
    const found = typeof id === 'number' ? symbols.byId(id) : undefined;
    if (!found) throw refuse('Invalid symbol id');
    return found;
  };
  const multiplier = (symbolId: number) => (symbols.byId(symbolId)?.securityType === 'Option' ? 100 : 1);

  const record = (id: number, symbolId: number, terms: Json, extra: Json = {}) =>
    newRecord(symbols, questradeTime(now()), id, symbolId, terms, extra);
  /** The side Questrade lists for `action` on the symbol, given what the account holds. */
  const sideOf = (number: string, symbolId: number, action: unknown, held = 0) =>
    listedSide(
      action,
      symbols.byId(symbolId)?.securityType === 'Option',
      (positions.get(`${number}:${symbolId}`)?.quantity ?? 0) + held,
    );

  function execute(owner: FakeAccount, order: Json): void {
    const symbolId = order.symbolId as number;
    const price = symbols.byId(symbolId)?.quote ?? 100;
    const qty = order.totalQuantity as number;
    const signed = BUY_SIDES.has(String(order.side)) ? qty : -qty;
    const key = `${owner.number}:${symbolId}`;
    const held = positions.get(key) ?? { symbolId, quantity: 0, cost: 0 };
    held.quantity += signed;
    held.cost += signed * price * multiplier(symbolId);
    positions.set(key, held);
    owner.cash -= signed * price * multiplier(symbolId);
    Object.assign(order, {
      state: 'Executed',
      filledQuantity: qty,
      openQuantity: 0,
      avgExecPrice: price,
      lastExecPrice: price,
      comissionCharged: 4.95,
    });
    for (const exit of records)
      if (exit.orderGroupId === order.orderGroupId && exit.orderGroupId !== 0 && exit.state === 'ContingentOrder')
        exit.state = 'Accepted';
  }

  const costOf = (terms: Json, symbolId: number) =>
    terms.action === 'Buy'
      ? (terms.quantity as number) *
        ((terms.limitPrice as number) || symbols.byId(symbolId)?.quote || 100) *
        multiplier(symbolId)
      : 0;

  /** The answer Questrade gives an order it created and rejected for want of buying power. */
  function rejected(order: Json): Json {
    Object.assign(order, {
      state: 'Rejected',
      openQuantity: 0,
      canceledQuantity: order.totalQuantity,
      clientReasonStr: 'Insufficient buying power',
    });
    return { code: 3054, message: 'Order rejected', orderId: order.id, orders: [structuredClone(order)] };
  }

  function placeSingle(number: string, body: Json, impact: boolean): Json {
    const owner = account(number);
    checkFields(body, ORDER_FIELDS);
    if (body.accountNumber !== undefined && body.accountNumber !== number) throw refuse('Account number mismatch');
    const symbol = symbolOf(body.symbolId);
    checkTerms(body, symbol.underlying !== undefined);
    checkRoutes(body);
    const cost = costOf(body, symbol.symbolId);
    if (impact) return impactOf(owner, body, cost);
    const order = record(nextId++, symbol.symbolId, body, { side: sideOf(number, symbol.symbolId, body.action) });
    records.push(order);
    if (cost > owner.cash) return rejected(order);
    const answer = structuredClone({ ...order, state: 'Pending' });
    if (body.orderType === 'Market') execute(owner, order);
    return { orderId: order.id, orders: [answer] };
  }

  function placeBracket(number: string, body: Json, impact: boolean): Json {
    const owner = account(number);
    checkFields(body, ['accountNumber', 'symbolId', 'primaryRoute', 'secondaryRoute', 'components']);
    const symbol = symbolOf(body.symbolId);
    checkRoutes(body);
    const components = Array.isArray(body.components) ? (body.components as Json[]) : [];
    const primary = components.find((item) => item.orderClass === 'Primary');
    const exits = components.filter((item) => item.orderClass === 'Limit' || item.orderClass === 'StopLoss');
    if (!primary || exits.length === 0 || exits.length + 1 !== components.length)
      throw refuse('A bracket needs a Primary component and a Limit or StopLoss one');
    for (const component of components) {
      checkFields(component, COMPONENT_FIELDS);
      checkTerms(component, symbol.underlying !== undefined);
      if (component.orderId !== 0) throw refuse('New bracket components have orderId 0');
    }
    if (exits.some((exit) => exit.action === primary.action || exit.quantity !== primary.quantity))
      throw refuse('Bracket exits close the primary order');
    const cost = costOf(primary, symbol.symbolId);
    if (impact) return impactOf(owner, primary, cost);
    const group = nextId;
    // The exits close what the entry opens: their side as if it had executed.
    const opened = (primary.action === 'Buy' ? 1 : -1) * (primary.quantity as number);
    const created = components.map((component) =>
      record(
        nextId++,
        symbol.symbolId,
        { ...body, ...component },
        {
          side: sideOf(number, symbol.symbolId, component.action, component === primary ? 0 : opened),
          orderGroupId: group,
          orderClass: component.orderClass,
          state: component.orderClass === 'Primary' ? 'Accepted' : 'ContingentOrder',
        },
      ),
    );
    records.push(...created);
    const [entry] = created;
    if (!entry) throw refuse('A bracket needs a Primary component');
    if (cost > owner.cash) return rejected(entry);
    const answer = structuredClone(created);
    if (primary.orderType === 'Market') execute(owner, entry);
    return { orders: answer };
  }

  function placeStrategy(number: string, body: Json, impact: boolean): Json {
    const owner = account(number);
    checkFields(body, [
      'accountNumber',
      'symbolId',
      'strategy',
      'orderType',
      'timeInForce',
      'limitPrice',
      'quantity',
      'legs',
      'primaryRoute',
      'secondaryRoute',
      'isAllOrNone',
      'isAnonymous',
    ]);
    const underlying = symbolOf(body.symbolId);
    if (!STRATEGIES.includes(String(body.strategy))) throw refuse('Invalid strategy');
    if (body.orderType !== 'Market' && body.orderType !== 'Limit') throw refuse('Invalid orderType');
    if (!TIFS.includes(String(body.timeInForce))) throw refuse('Invalid timeInForce');
    if (body.orderType === 'Limit' && typeof body.limitPrice !== 'number') throw refuse('Limit price is required');
    // A strategy's net price (a credit negative) is in option cents.
    if (typeof body.limitPrice === 'number' && (String(body.limitPrice).split('.')[1] ?? '').length > 2)
      throw refuse(`Invalid limitPrice: ${body.limitPrice} is not a valid price increment`);
    if (!Number.isInteger(body.quantity) || (body.quantity as number) < 1) throw refuse('Invalid quantity');
    checkRoutes(body);
    const legs = Array.isArray(body.legs) ? (body.legs as Json[]) : [];
    if (legs.length < 2 || legs.length > 4) throw refuse('A strategy has 2 to 4 legs');
    for (const leg of legs) {
      checkFields(leg, ['symbolId', 'action', 'legQuantity']);
      const symbol = symbolOf(leg.symbolId);
      const root = symbol.underlying?.symbolId ?? symbol.symbolId;
      if (root !== underlying.symbolId) throw refuse('Every leg must be on the underlying');
      if ((leg.action !== 'Buy' && leg.action !== 'Sell') || !Number.isInteger(leg.legQuantity))
        throw refuse('Invalid leg');
    }
    if (impact) return impactOf(owner, body, 0);
    const order = record(
      nextId++,
      underlying.symbolId,
      { ...body, action: legs[0]?.action },
      {
        strategyType: body.strategy,
        legs: legs.map((leg, index) => ({
          legId: index + 1,
          symbol: symbols.byId(leg.symbolId as number)?.symbol,
          symbolId: leg.symbolId,
          legRatioQuantity: leg.legQuantity,
          side: leg.action,
          avgExecPrice: null,
          lastExecPrice: null,
        })),
      },
    );
    records.push(order);
    return { orderId: order.id, orders: [structuredClone({ ...order, state: 'Pending' })] };
  }

  function impactOf(owner: FakeAccount, terms: Json, cost: number): Json {
    return {
      estimatedCommissions: 4.95,
      buyingPowerEffect: -cost,
      buyingPowerResult: owner.cash - cost,
      maintExcess: owner.cash - cost,
      side: terms.action,
      avgPrice: terms.limitPrice ?? null,
      price: terms.limitPrice ?? null,
    };
  }

  function list(number: string, query: Record<string, string | undefined>): Json {
    account(number);
    const day = questradeTime(now()).slice(0, 10);
    const from = Date.parse(query.startTime ?? `${day}T00:00:00-05:00`);
    const to = Date.parse(query.endTime ?? `${day}T23:59:59-05:00`);
    const filter = query.stateFilter ?? 'All';
    const orders = records.filter((item) => {
      const created = Date.parse(String(item.creationTime));
      const open = OPEN.has(String(item.state));
      return created >= from && created <= to && (filter === 'All' || open === (filter === 'Open'));
    });
    return { orders };
  }

  /** POST …/orders/{id}: the open order replaced by a full new one of the same symbol, in its chain. */
  function replace(number: string, id: number, body: Json): Json {
    account(number);
    const old = records.find((item) => item.id === id);
    if (!old) throw new FakeAnswer(404, { code: 1020, message: 'Order not found' });
    if (!OPEN.has(String(old.state))) throw refuse(`Order cannot be replaced in state ${String(old.state)}`);
    checkFields(body, ORDER_FIELDS);
    if (body.symbolId !== old.symbolId) throw refuse('A replacing order is for the same symbol');
    checkTerms(body, symbols.byId(old.symbolId as number)?.underlying !== undefined);
    checkRoutes(body);
    const order = record(nextId++, old.symbolId as number, body, {
      side: sideOf(number, old.symbolId as number, body.action),
      chainId: old.chainId,
    });
    Object.assign(old, { state: 'Replaced', openQuantity: 0 });
    records.push(order);
    return { orderId: order.id, orders: [structuredClone(order)] };
  }

  function cancel(number: string, id: number): Json {
    account(number);
    const order = records.find((item) => item.id === id);
    if (!order) throw new FakeAnswer(404, { code: 1020, message: 'Order not found' });
    if (!OPEN.has(String(order.state))) throw refuse(`Order cannot be canceled in state ${String(order.state)}`);
    Object.assign(order, { state: 'Canceled', canceledQuantity: order.openQuantity, openQuantity: 0 });
    return { orderId: id };
  }

  return {
    records,
    placeSingle,
    placeBracket,
    placeStrategy,
    list,
    replace,
    cancel,
    find: (number: string, id: number) => {
      account(number);
      const order = records.find((item) => item.id === id);
      if (!order) throw new FakeAnswer(404, { code: 1020, message: 'Order not found' });
      return { orders: [order] };
    },
    positionsOf: (number: string) => ({
      positions: [...positions]
        .filter(([key, item]) => key.startsWith(`${number}:`) && item.quantity !== 0)
        .map(([, item]) => {
          const quote = symbols.byId(item.symbolId)?.quote ?? 100;
          const value = item.quantity * quote * multiplier(item.symbolId);
          return {
            symbol: symbols.byId(item.symbolId)?.symbol,
            symbolId: item.symbolId,
            openQuantity: item.quantity,
            closedQuantity: 0,
            currentMarketValue: value,
            currentPrice: quote,
            averageEntryPrice: item.cost / item.quantity / multiplier(item.symbolId),
            closedPnl: 0,
            openPnl: value - item.cost,
            totalCost: item.cost,
            isRealTime: false,
            isUnderReorg: false,
          };
        }),
    }),
    balancesOf: (number: string) => {
      const owner = account(number);
      const balance = {
        currency: 'CAD',
        cash: owner.cash,
        marketValue: 0,
        totalEquity: owner.cash,
        buyingPower: owner.cash,
        maintenanceExcess: owner.cash,
        isRealTime: false,
      };
      return {
        perCurrencyBalances: [balance],
        combinedBalances: [balance],
        sodPerCurrencyBalances: [balance],
        sodCombinedBalances: [balance],
      };
    },
    /** The order of Questrade's published samples: 177106005, a limit buy of 10 AAPL at 537. */
    seedPublished(number: string) {
      const at = Date.parse('2014-10-24T17:48:20.546000-04:00');
      records.push({
        ...record(177_106_005, 8049, {
          quantity: 10,
          action: 'Buy',
          orderType: 'Limit',
          limitPrice: 537,
          timeInForce: 'GoodTillCanceled',
          isAllOrNone: true,
          icebergQuantity: 1,
          primaryRoute: 'LAMP',
        }),
        creationTime: questradeTime(at),
        updateTime: questradeTime(at),
      });
      account(number);
    },
  };
}

export type FakeBook = ReturnType<typeof createFakeBook>;
