// The MT terminal behind one MetaApi account in the protocol fake: balance and margin, open
// (pending) orders, positions and the order history, and POST …/trade answered as MetaApi does:
// HTTP 200 with {numericCode, stringCode, message, orderId?, positionId?} whether the trade
// succeeded or not (MT5 trade server codes; MQL5 runtime codes for what does not exist).
// Market orders fill at once at the quote; pending orders rest (quotes do not move).
import { INSTRUMENTS, type MtAccount, SERVER_SYMBOLS } from './fake-data.ts';

export interface FakeOrder {
  id: string;
  type: string;
  state: string;
  symbol: string;
  magic: number;
  time: string;
  doneTime?: string;
  openPrice: number;
  stopLimitPrice?: number;
  stopLoss?: number;
  takeProfit?: number;
  volume: number;
  currentVolume: number;
  positionId?: string;
  comment?: string;
  clientId?: string;
  expirationType?: string;
  expirationTime?: string;
}

export interface FakePosition {
  id: string;
  type: 'POSITION_TYPE_BUY' | 'POSITION_TYPE_SELL';
  symbol: string;
  magic: number;
  time: string;
  openPrice: number;
  currentPrice: number;
  volume: number;
  stopLoss?: number;
  takeProfit?: number;
  comment?: string;
  clientId?: string;
}

type Trade = Record<string, unknown>;
type Answer = { numericCode: number; stringCode: string; message: string; orderId?: string; positionId?: string };

const answer = (numericCode: number, stringCode: string, message: string): Answer => ({
  numericCode,
  stringCode,
  message,
});
const DONE = (orderId: string, positionId?: string): Answer => ({
  ...answer(10009, 'TRADE_RETCODE_DONE', 'Request completed'),
  orderId,
  ...(positionId ? { positionId } : {}),
});
const INVALID = answer(10013, 'TRADE_RETCODE_INVALID', 'Invalid request');
const INVALID_VOLUME = answer(10014, 'TRADE_RETCODE_INVALID_VOLUME', 'Invalid volume in the request');
const INVALID_PRICE = answer(10015, 'TRADE_RETCODE_INVALID_PRICE', 'Invalid price in the request');
const INVALID_STOPS = answer(10016, 'TRADE_RETCODE_INVALID_STOPS', 'Invalid stops in the request');
const NO_MONEY = answer(10019, 'TRADE_RETCODE_NO_MONEY', 'Not enough money to complete the request');
const INVALID_EXPIRATION = answer(10022, 'TRADE_RETCODE_INVALID_EXPIRATION', 'Invalid expiration in the request');
const UNKNOWN_SYMBOL = answer(4301, 'ERR_MARKET_UNKNOWN_SYMBOL', 'Unknown symbol');
const NO_POSITION = answer(4753, 'ERR_TRADE_POSITION_NOT_FOUND', 'Position not found');
const NO_ORDER = answer(4754, 'ERR_TRADE_ORDER_NOT_FOUND', 'Order not found');

const num = (value: unknown) => (typeof value === 'number' ? value : undefined);
const lots = (value: number) => Math.round(value * 100) / 100;

/** Tickets of one MT server: every order and position gets the next number. */
export function ticketCounter(first = 47_137_555): () => string {
  let next = first;
  return () => String(next++);
}

export function createTerminal(mt: MtAccount, investor: boolean, nextTicket: () => string) {
  const names = SERVER_SYMBOLS[mt.server] ?? {};
  const orders = new Map<string, FakeOrder>();
  const positions = new Map<string, FakePosition>();
  const history: FakeOrder[] = [];
  let balance = mt.balance;
  let entered = 0;

  const quote = (symbol: string) => INSTRUMENTS[names[symbol] ?? ''];
  /** The symbol's lot rule (MetatraderSymbolSpecification): a whole number of steps, at least the minimum. */
  const specification = (symbol: string) => {
    const market = quote(symbol);
    if (!market) return undefined;
    const { contractSize, volumeStep = 0.01, minVolume = 0.01 } = market;
    return { symbol, minVolume, maxVolume: 100, volumeStep, contractSize };
  };
  const fitsLots = (symbol: string, volume: number) => {
    const { volumeStep = 0.01, minVolume = 0.01 } = specification(symbol) ?? {};
    const steps = volume / volumeStep;
    return volume >= minVolume - 1e-9 && Math.abs(steps - Math.round(steps)) < 1e-6;
  };
  const marginOf = (symbol: string, volume: number, price: number) =>
    (volume * (quote(symbol)?.contractSize ?? 1) * price) / mt.leverage;
  const usedMargin = () =>
    [...positions.values()].reduce((sum, p) => sum + marginOf(p.symbol, p.volume, p.openPrice), 0);

  function info() {
    const margin = usedMargin();
    return {
      platform: mt.platform,
      broker: 'MetaQuotes Ltd.',
      currency: mt.currency,
      server: mt.server,
      balance,
      equity: balance,
      margin,
      freeMargin: balance - margin,
      leverage: mt.leverage,
      marginLevel: margin > 0 ? (balance / margin) * 100 : undefined,
      tradeAllowed: !investor,
      investorMode: investor,
      marginMode: 'ACCOUNT_MARGIN_MODE_RETAIL_HEDGING',
      name: 'Fake Trader',
      login: Number(mt.login),
      credit: 0,
      type: mt.tradeMode,
    };
  }

  function checkNew(trade: Trade, now: number): Answer | undefined {
    const symbol = String(trade.symbol ?? '');
    const market = quote(symbol);
    if (!market) return UNKNOWN_SYMBOL;
    const volume = num(trade.volume) ?? 0;
    if (!fitsLots(symbol, volume) || volume > 100) return INVALID_VOLUME;
    const kind = String(trade.actionType).replace('ORDER_TYPE_', '');
    if (kind.includes('STOP_LIMIT') && mt.platform === 'mt4') return INVALID;
    const buy = kind.startsWith('BUY');
    const open = num(trade.openPrice);
    const pending = kind !== 'BUY' && kind !== 'SELL';
    if (pending) {
      if (open === undefined || (kind.includes('STOP_LIMIT') && num(trade.stopLimitPrice) === undefined))
        return INVALID_PRICE;
      const limit = kind.endsWith('LIMIT') && !kind.includes('STOP');
      const above = buy !== limit;
      if (above ? open <= (buy ? market.ask : market.bid) : open >= (buy ? market.ask : market.bid))
        return INVALID_PRICE;
      const expiration = trade.expiration as { type?: string; time?: string } | undefined;
      // MT4 takes only a set time (WIRE.md §4); without one an order rests until canceled.
      if (expiration !== undefined && expiration.type !== 'ORDER_TIME_SPECIFIED' && mt.platform === 'mt4')
        return INVALID_EXPIRATION;
      if (expiration?.type === 'ORDER_TIME_SPECIFIED' && !(Date.parse(expiration.time ?? '') > now))
        return INVALID_EXPIRATION;
    } else if (trade.expiration !== undefined) return INVALID_EXPIRATION;
    const entry = pending ? (open as number) : buy ? market.ask : market.bid;
    const stopLoss = num(trade.stopLoss);
    const takeProfit = num(trade.takeProfit);
    if (stopLoss !== undefined && (buy ? stopLoss >= entry : stopLoss <= entry)) return INVALID_STOPS;
    if (takeProfit !== undefined && (buy ? takeProfit <= entry : takeProfit >= entry)) return INVALID_STOPS;
    if (marginOf(symbol, volume, entry) > balance - usedMargin()) return NO_MONEY;
    return undefined;
  }

  function place(trade: Trade, now: number): Answer {
    const refused = checkNew(trade, now);
    if (refused) return refused;
    const symbol = String(trade.symbol);
    const market = quote(symbol);
    const type = String(trade.actionType);
    const buy = type.startsWith('ORDER_TYPE_BUY');
    const volume = num(trade.volume) ?? 0;
    const time = new Date(now).toISOString();
    const expiration = trade.expiration as { type?: string; time?: string } | undefined;
    const order: FakeOrder = {
      id: nextTicket(),
      type,
      state: 'ORDER_STATE_PLACED',
      symbol,
      magic: num(trade.magic) ?? 0,
      time,
      openPrice: num(trade.openPrice) ?? (buy ? market?.ask : market?.bid) ?? 0,
      volume,
      currentVolume: volume,
      ...(num(trade.stopLimitPrice) !== undefined ? { stopLimitPrice: num(trade.stopLimitPrice) } : {}),
      ...(num(trade.stopLoss) !== undefined ? { stopLoss: num(trade.stopLoss) } : {}),
      ...(num(trade.takeProfit) !== undefined ? { takeProfit: num(trade.takeProfit) } : {}),
      ...(typeof trade.comment === 'string' ? { comment: trade.comment } : {}),
      ...(typeof trade.clientId === 'string' ? { clientId: trade.clientId } : {}),
      ...(expiration?.type ? { expirationType: expiration.type } : {}),
      ...(expiration?.time ? { expirationTime: expiration.time } : {}),
    };
    entered++;
    if (type !== 'ORDER_TYPE_BUY' && type !== 'ORDER_TYPE_SELL') {
      orders.set(order.id, order);
      return DONE(order.id);
    }
    const position: FakePosition = {
      id: order.id,
      type: buy ? 'POSITION_TYPE_BUY' : 'POSITION_TYPE_SELL',
      symbol,
      magic: order.magic,
      time,
      openPrice: order.openPrice,
      currentPrice: order.openPrice,
      volume,
      ...(order.stopLoss !== undefined ? { stopLoss: order.stopLoss } : {}),
      ...(order.takeProfit !== undefined ? { takeProfit: order.takeProfit } : {}),
      ...(order.comment ? { comment: order.comment } : {}),
      ...(order.clientId ? { clientId: order.clientId } : {}),
    };
    positions.set(position.id, position);
    history.push({ ...order, state: 'ORDER_STATE_FILLED', doneTime: time, currentVolume: 0, positionId: position.id });
    return DONE(order.id, position.id);
  }

  /** Closes `volume` of a position with an opposite market order; the closing order's ticket. */
  function close(position: FakePosition, volume: number, now: number): string {
    const market = quote(position.symbol);
    const long = position.type === 'POSITION_TYPE_BUY';
    const price = (long ? market?.bid : market?.ask) ?? position.openPrice;
    const time = new Date(now).toISOString();
    const id = nextTicket();
    const contract = quote(position.symbol)?.contractSize ?? 1;
    balance += (long ? price - position.openPrice : position.openPrice - price) * contract * volume;
    history.push({
      id,
      type: long ? 'ORDER_TYPE_SELL' : 'ORDER_TYPE_BUY',
      state: 'ORDER_STATE_FILLED',
      symbol: position.symbol,
      magic: position.magic,
      time,
      doneTime: time,
      openPrice: price,
      volume,
      currentVolume: 0,
      positionId: position.id,
    });
    position.volume = lots(position.volume - volume);
    if (position.volume <= 0) positions.delete(position.id);
    return id;
  }

  function trade(body: Trade, now = Date.now()): Answer {
    const action = String(body.actionType);
    if (action.startsWith('ORDER_TYPE_')) return place(body, now);
    if (action === 'ORDER_CANCEL') {
      const order = orders.get(String(body.orderId));
      if (!order) return NO_ORDER;
      orders.delete(order.id);
      history.push({ ...order, state: 'ORDER_STATE_CANCELED', doneTime: new Date(now).toISOString() });
      return DONE(order.id);
    }
    if (action === 'POSITIONS_CLOSE_SYMBOL') {
      const held = [...positions.values()].filter((p) => p.symbol === body.symbol);
      if (!held.length) return NO_POSITION;
      const ids = held.map((position) => close(position, position.volume, now));
      return DONE(ids.at(-1) ?? '');
    }
    if (action === 'POSITION_CLOSE_ID' || action === 'POSITION_PARTIAL') {
      const position = positions.get(String(body.positionId));
      if (!position) return NO_POSITION;
      const volume = action === 'POSITION_PARTIAL' ? (num(body.volume) ?? 0) : position.volume;
      if (!fitsLots(position.symbol, volume) || volume > position.volume) return INVALID_VOLUME;
      return DONE(close(position, volume, now), position.id);
    }
    return INVALID;
  }

  return {
    info,
    symbols: () => Object.keys(names),
    specification,
    /** MetatraderSymbolPrice of a symbol this server names; undefined for any other. */
    price(symbol: string, now: Date) {
      const market = quote(symbol);
      if (!market) return undefined;
      const time = now.toISOString();
      return { symbol, bid: market.bid, ask: market.ask, profitTickValue: 1, lossTickValue: 1, time, brokerTime: time };
    },
    orders,
    positions,
    history,
    trade,
    /** Orders the account's trades entered (not the ones closing positions). */
    entered: () => entered,
  };
}

export type FakeTerminal = ReturnType<typeof createTerminal>;
