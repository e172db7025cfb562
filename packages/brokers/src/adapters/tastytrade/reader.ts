// Reading tastytrade's answers (all wrapped as {"data": …, "context": "…"}, lists as data.items):
//   GET /customers/me/accounts  {"data":{"items":[{"account":{"account-number":"5WT00001","nickname":"Individual",
//     "margin-or-cash":"Margin","is-closed":false,…},"authority-level":"owner"}]}}
//   an order  {"id":1075999,"status":"Filled","reject-reason":…,"external-identifier":"sig-1",
//     "legs":[{"symbol":"AAPL","quantity":"100","fills":[{"quantity":"100","fill-price":"175.24"}]}],…}
//   GET /accounts/{n}/positions  {"data":{"items":[{"symbol":"AAPL","instrument-type":"Equity","quantity":"10",
//     "quantity-direction":"Long","average-open-price":"170.5","close-price":"175.2","multiplier":1}]}}
import type { OrderResponse } from '@router/orders';
import type { BrokerAccount, Holdings } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';

export const dataOf = (body: unknown): JsonRecord | undefined => asRecord(asRecord(body)?.data);
export const itemsOf = (body: unknown): JsonRecord[] => listOf(dataOf(body)?.items);

export function toAccounts(body: unknown, demo: boolean): BrokerAccount[] {
  return itemsOf(body).flatMap((item) => {
    const account = asRecord(item.account);
    const number = stringField(account, 'account-number');
    if (!number || account?.['is-closed'] === true) return [];
    const kind = stringField(account, 'margin-or-cash')?.toLowerCase();
    const nickname = stringField(account, 'nickname') ?? stringField(account, 'account-type-name') ?? 'account';
    return [
      {
        id: number,
        name: `tastytrade ${nickname} ${number}`,
        dataTitle: number,
        ...(kind ? { dataType: kind } : {}),
        dataCurrency: 'USD',
        demo: demo || account?.['is-test-drive'] === true,
      },
    ];
  });
}

const STATUS: Record<string, OrderResponse['status']> = {
  Filled: 'filled',
  Rejected: 'rejected',
  Cancelled: 'canceled',
  Expired: 'canceled',
  Removed: 'canceled',
  'Partially Removed': 'canceled',
};

/** Still working (or about to): what the cancel action cancels. */
export const LIVE_STATUSES = new Set(['Received', 'Routed', 'In Flight', 'Contingent', 'Live']);

/** Average fill price over every leg's fills, if anything filled. */
function fillPrice(order: JsonRecord): number | undefined {
  let quantity = 0;
  let value = 0;
  for (const leg of listOf(order.legs)) {
    for (const fill of listOf(leg.fills)) {
      const filled = decimalField(fill, 'quantity') ?? 0;
      quantity += filled;
      value += filled * (decimalField(fill, 'fill-price') ?? 0);
    }
  }
  return quantity > 0 ? Math.round((value / quantity) * 1e6) / 1e6 : undefined;
}

export function toOrderResponse(body: unknown, fallbackId = ''): OrderResponse {
  const order = asRecord(body) ?? {};
  const status = stringField(order, 'status') ?? 'Received';
  const price = fillPrice(order);
  const reason = stringField(order, 'reject-reason');
  return {
    id: stringField(order, 'id') ?? fallbackId,
    status: STATUS[status] ?? 'accepted',
    status_description: reason ? `${status}: ${reason}` : status,
    ...(price !== undefined ? { price } : {}),
  };
}

export interface TastyPosition {
  symbol: string;
  instrumentType: string;
  /** Long positive, short negative. */
  quantity: number;
  averagePrice?: number;
  marketValue?: number;
}

export function positionsOf(body: unknown): TastyPosition[] {
  return itemsOf(body).flatMap((item) => {
    const symbol = stringField(item, 'symbol');
    const size = decimalField(item, 'quantity') ?? 0;
    if (!symbol || size === 0) return [];
    const quantity = stringField(item, 'quantity-direction') === 'Short' ? -Math.abs(size) : Math.abs(size);
    const averagePrice = decimalField(item, 'average-open-price');
    const mark = decimalField(item, 'mark-price') ?? decimalField(item, 'close-price');
    const multiplier = decimalField(item, 'multiplier') ?? 1;
    return [
      {
        symbol,
        instrumentType: stringField(item, 'instrument-type') ?? 'Equity',
        quantity,
        ...(averagePrice !== undefined ? { averagePrice } : {}),
        ...(mark !== undefined ? { marketValue: Math.round(quantity * mark * multiplier * 100) / 100 } : {}),
      },
    ];
  });
}

export function holdingsOf(balances: unknown, positions: unknown): Holdings {
  const balance = dataOf(balances);
  const cash = decimalField(balance, 'cash-balance');
  const equity = decimalField(balance, 'net-liquidating-value');
  const buyingPower = decimalField(balance, 'equity-buying-power') ?? decimalField(balance, 'derivative-buying-power');
  return {
    ...(cash !== undefined ? { cash } : {}),
    ...(equity !== undefined ? { equity } : {}),
    ...(buyingPower !== undefined ? { buyingPower } : {}),
    currency: stringField(balance, 'currency') ?? 'USD',
    positions: positionsOf(positions).map(({ instrumentType: _, ...position }) => position),
  };
}
