// A Saxo account's holdings and the actions built on them. Not in WIRE.md; shapes from Saxo's
// portfolio reference (port/v1/balances, port/v1/netpositions):
//   GET /port/v1/balances?ClientKey&AccountKey  {"CashBalance":…,"TotalValue":…,"MarginAvailableForTrading":…,"Currency":"EUR"}
//   GET /port/v1/netpositions?ClientKey&AccountKey&FieldGroups=NetPositionBase,NetPositionView,DisplayAndFormat
//     {"Data":[{"NetPositionBase":{"Uic":211,"AssetType":"Stock","Amount":100},"NetPositionView":
//       {"AverageOpenPrice":170.1,"MarketValue":17525},"DisplayAndFormat":{"Symbol":"AAPL:xnas"}}]}
// close: a market order against the net position (a part keeps its exits, cut to what is left);
// cancel: the instrument's open orders.
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession, Holdings } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { cutExits } from '../../core/exits-cut.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { SaxoApi } from './api.ts';
import { SAXO_TITLE } from './descriptor.ts';
import type { SaxoInstrument } from './instruments.ts';
import { clientKeyOf, openOrders } from './lookup.ts';
import type { SaxoOrder } from './mapper.ts';
import { cancelOrders } from './orders.ts';

/** Open orders Saxo is canceling already (WIRE.md §6): not canceled again, nor cut. */
const CANCEL_PENDING = new Set(['WorkingLockedCancelPending', 'NotWorkingLockedCancelPending']);

interface NetPosition {
  uic: number;
  assetType: string;
  symbol: string;
  amount: number;
  averagePrice?: number;
  marketValue?: number;
}

async function netPositions(api: SaxoApi, ctx: BrokerContext, session: BrokerSession, accountKey: string) {
  const { body } = await api.call(ctx, session, {
    path: '/port/v1/netpositions',
    query: {
      ClientKey: clientKeyOf(session),
      AccountKey: accountKey,
      FieldGroups: 'NetPositionBase,NetPositionView,DisplayAndFormat',
    },
  });
  return listOf(asRecord(body)?.Data).flatMap((item): NetPosition[] => {
    const base = asRecord(item.NetPositionBase);
    const view = asRecord(item.NetPositionView);
    const uic = decimalField(base, 'Uic');
    const amount = decimalField(base, 'Amount');
    const assetType = stringField(base, 'AssetType');
    if (uic === undefined || !amount || !assetType) return [];
    const averagePrice = decimalField(view, 'AverageOpenPrice');
    const marketValue = decimalField(view, 'MarketValue');
    return [
      {
        uic,
        assetType,
        symbol: stringField(asRecord(item.DisplayAndFormat), 'Symbol') ?? String(uic),
        amount,
        ...(averagePrice !== undefined ? { averagePrice } : {}),
        ...(marketValue !== undefined ? { marketValue } : {}),
      },
    ];
  });
}

export async function holdingsOf(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountKey: string,
): Promise<Holdings> {
  const [balance, positions] = await Promise.all([
    api.call(ctx, session, {
      path: '/port/v1/balances',
      query: { ClientKey: clientKeyOf(session), AccountKey: accountKey },
    }),
    netPositions(api, ctx, session, accountKey),
  ]);
  const cash = decimalField(balance.body, 'CashBalance');
  const equity = decimalField(balance.body, 'TotalValue');
  const buyingPower = decimalField(balance.body, 'MarginAvailableForTrading');
  const currency = stringField(balance.body, 'Currency');
  return {
    ...(cash !== undefined ? { cash } : {}),
    ...(equity !== undefined ? { equity } : {}),
    ...(buyingPower !== undefined ? { buyingPower } : {}),
    ...(currency ? { currency } : {}),
    positions: positions.map(({ symbol, amount, averagePrice, marketValue }) => ({
      symbol,
      quantity: amount,
      ...(averagePrice !== undefined ? { averagePrice } : {}),
      ...(marketValue !== undefined ? { marketValue } : {}),
    })),
  };
}

/**
 * The market order that flattens the net position in `instrument`, or closes `quantity` of it (at
 * most all); `left`: what it leaves held.
 */
export async function closingOrder(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountKey: string,
  instrument: SaxoInstrument,
  reference: string,
  quantity?: number,
): Promise<{ order: SaxoOrder; left: number }> {
  const positions = await netPositions(api, ctx, session, accountKey);
  const position = positions.find((item) => item.uic === instrument.uic && item.assetType === instrument.assetType);
  if (!position) throw new BrokerError('InvalidOrder', SAXO_TITLE, `no open position in ${instrument.symbol}`);
  const held = Math.abs(position.amount);
  const amount = Math.min(held, quantity ?? Number.POSITIVE_INFINITY);
  const order: SaxoOrder = {
    AccountKey: accountKey,
    Uic: instrument.uic,
    AssetType: instrument.assetType,
    BuySell: position.amount > 0 ? 'Sell' : 'Buy',
    Amount: amount,
    OrderType: 'Market',
    // FX market orders as Saxo's FX market activities show them (FillOrKill); others for the day.
    OrderDuration: { DurationType: instrument.assetType === 'FxSpot' ? 'FillOrKill' : 'DayOrder' },
    ...(instrument.assetType.endsWith('Option') ? { ToOpenClose: 'ToClose' as const } : {}),
    ExternalReference: reference,
    ManualOrder: false,
  };
  return { order, left: held - amount };
}

/**
 * After a close of part of the position, its exits (the instrument's working orders on the side of
 * the `closing` order) larger than the `left` still held are cut to it: sized for the whole
 * position, a stop triggered later sold more than was held (a position opened the other way). Saxo
 * modifies an order in place (PATCH /trade/v2/orders, WIRE.md §7) with its type, price and
 * duration and the new Amount (what filled plus what is left). Exits of an entry not yet filled
 * (NotWorking) close nothing held and are left alone. The close stands whatever happens here.
 */
export function fitExits(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  closing: SaxoOrder,
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const { AccountKey, Uic, AssetType, BuySell } = closing;
  const exits = async () =>
    (await openOrders(api, ctx, session, AccountKey)).filter(
      (item) =>
        decimalField(item, 'Uic') === Uic &&
        stringField(item, 'AssetType') === AssetType &&
        stringField(item, 'BuySell') === BuySell &&
        stringField(item, 'Status') !== 'NotWorking' &&
        !CANCEL_PENDING.has(stringField(item, 'Status') ?? '') &&
        (decimalField(item, 'Amount') ?? 0) - (decimalField(item, 'FilledAmount') ?? 0) > left,
    );
  return cutExits(answer, `the ${left} left`, exits, async (exit) => {
    const OrderId = stringField(exit, 'OrderId') ?? '';
    const price = decimalField(exit, 'Price');
    const stopLimit = decimalField(exit, 'StopLimitPrice');
    const json = {
      AccountKey,
      OrderId,
      AssetType,
      OrderType: stringField(exit, 'OpenOrderType'),
      ...(price !== undefined ? { OrderPrice: price } : {}),
      ...(stopLimit !== undefined ? { StopLimitPrice: stopLimit } : {}),
      Amount: (decimalField(exit, 'FilledAmount') ?? 0) + left,
      OrderDuration: asRecord(exit.Duration) ?? { DurationType: 'DayOrder' },
      ManualOrder: false,
    };
    await api.call(ctx, session, { method: 'PATCH', path: '/trade/v2/orders', json }, 'order');
    return OrderId;
  });
}

/**
 * Cancels the open orders of `symbol` in one request: the ids canceled, and those Saxo said were
 * gone before (filled or canceled elsewhere: not canceled by us). Those the answer does not list
 * as canceled count as canceled once the open orders no longer show them working (an entry's
 * related orders go with it). When some stay, the error says which were canceled and which not
 * (cancelEach's words: the canceled ones first, then the first not canceled, failing with Saxo's reason).
 */
async function cancelAll(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountKey: string,
  orderIds: readonly string[],
  symbol: string,
): Promise<{ canceled: string[]; before: string[] }> {
  const { canceled, refused, gone: before } = await cancelOrders(api, ctx, session, accountKey, orderIds);
  const asked = orderIds.filter((id) => !before.includes(id));
  if (canceled.length === asked.length) return { canceled, before };
  const working = new Set(
    (await openOrders(api, ctx, session, accountKey))
      .filter((item) => !CANCEL_PENDING.has(stringField(item, 'Status') ?? ''))
      .map((item) => stringField(item, 'OrderId')),
  );
  const gone = asked.filter((id) => canceled.includes(id) || !working.has(id));
  const missed = asked.filter((id) => !gone.includes(id));
  if (missed.length === 0) return { canceled: gone, before };
  const reason = refused.join('; ') || 'the cancel was not confirmed';
  const all = await cancelEach([...gone, ...missed], symbol, async (id) => {
    if (!gone.includes(id)) throw new BrokerError('InvalidOrder', SAXO_TITLE, `${reason} (order ${id})`);
  });
  return { canceled: all, before };
}

/**
 * The cancel action: every open order of the instrument (those already being canceled passed
 * over); none open is an answer, not an error. `gone`: those no longer open when canceled (maybe
 * filled: a close reads the position again).
 */
export async function cancelOpenOrders(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountKey: string,
  instrument: SaxoInstrument,
  order: Pick<Order, 'symbol'>,
): Promise<{ answer: OrderResponse; gone: string[] }> {
  const open = (await openOrders(api, ctx, session, accountKey)).filter(
    (item) =>
      decimalField(item, 'Uic') === instrument.uic &&
      stringField(item, 'AssetType') === instrument.assetType &&
      stringField(item, 'Status') !== 'Filled',
  );
  const idsOf = (items: typeof open) =>
    items.map((item) => stringField(item, 'OrderId')).filter((id): id is string => id !== undefined);
  const pending = idsOf(open.filter((item) => CANCEL_PENDING.has(stringField(item, 'Status') ?? '')));
  const name = order.symbol.trim();
  const wanted = idsOf(open).filter((id) => !pending.includes(id));
  const { canceled: ids, before } = wanted.length
    ? await cancelAll(api, ctx, session, accountKey, wanted, name)
    : { canceled: [], before: [] };
  const parts = [ids.length ? `Canceled ${ids.length} open order(s) of ${name}` : `No open orders of ${name}`];
  if (pending.length) parts.push(`already being canceled: ${pending.join(', ')}`);
  if (before.length)
    parts.push(`no longer open before the cancel (filled or canceled elsewhere): ${before.join(', ')}`);
  return { answer: { id: ids.join(','), status: 'canceled', status_description: parts.join('; ') }, gone: before };
}
