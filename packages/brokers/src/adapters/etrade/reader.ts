// Reading E*TRADE's answers (WIRE.md §3, §5, §6; broker-specs/etrade/fixtures):
//   accounts  {"AccountListResponse":{"Accounts":{"Account":[{"accountId","accountIdKey","accountMode",…}]}}}
//   preview   {"PreviewOrderResponse":{…,"Order":[{…,"messages":{…}}],"PreviewIds":[{"previewId":1627181131}]}}
//   place     {"PlaceOrderResponse":{…,"OrderIds":[{"orderId":96}]}}   (no status: read the order)
//   orders    {"OrdersResponse":{"marker","next","Order":[{"orderId","orderType","OrderDetail":[{status,…}]}]}}
import type { OrderResponse } from '@router/orders';
import type { BrokerAccount } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';

export function toAccounts(body: unknown, demo: boolean): BrokerAccount[] {
  const list = asRecord(asRecord(asRecord(body)?.AccountListResponse)?.Accounts)?.Account;
  return listOf(list).flatMap((account) => {
    const id = stringField(account, 'accountIdKey');
    const number = stringField(account, 'accountId') ?? '';
    if (!id || stringField(account, 'accountStatus') === 'CLOSED') return [];
    const mode = stringField(account, 'accountMode')?.toLowerCase();
    const description = stringField(account, 'accountDesc') ?? stringField(account, 'accountName') ?? 'account';
    const masked = `…${number.slice(-4)}`;
    return [
      {
        id,
        name: `E*TRADE ${description.toLowerCase()} ${masked}`,
        dataTitle: masked,
        ...(mode ? { dataType: mode } : {}),
        dataCurrency: 'USD',
        demo,
      },
    ];
  });
}

/** The description of E*TRADE's messages: "200|Your order was successfully entered…" → its text. */
export function messagesOf(container: unknown): Array<{ code?: string; text: string; type?: string }> {
  return listOf(asRecord(container)?.Message).flatMap((message) => {
    const description = stringField(message, 'description');
    if (!description) return [];
    const code = stringField(message, 'code');
    const type = stringField(message, 'type');
    return [{ ...(code ? { code } : {}), text: description.replace(/^\d+\|/, ''), ...(type ? { type } : {}) }];
  });
}

/** The messages on every Order of a preview or place answer. */
export function orderMessages(answer: JsonRecord | undefined) {
  return listOf(answer?.Order).flatMap((order) => messagesOf(order.messages ?? order.Messages));
}

export function previewIdsOf(body: unknown): Array<{ previewId: number }> {
  const answer = asRecord(asRecord(body)?.PreviewOrderResponse);
  return listOf(answer?.PreviewIds).flatMap((item) => {
    const id = decimalField(item, 'previewId');
    return id !== undefined ? [{ previewId: id }] : [];
  });
}

const STATUS: Record<string, OrderResponse['status']> = {
  EXECUTED: 'filled',
  DONE_TRADE_EXECUTED: 'filled',
  CANCELLED: 'canceled',
  EXPIRED: 'canceled',
  REJECTED: 'rejected',
};

/** Filled quantity-weighted average of the legs' execution prices. */
function executionPrice(detail: JsonRecord | undefined): number | undefined {
  let quantity = 0;
  let value = 0;
  for (const instrument of listOf(detail?.Instrument)) {
    const filled = decimalField(instrument, 'filledQuantity') ?? 0;
    const average = decimalField(instrument, 'averageExecutionPrice');
    if (filled > 0 && average !== undefined) {
      quantity += filled;
      value += filled * average;
    }
  }
  return quantity > 0 ? Math.round((value / quantity) * 10_000) / 10_000 : undefined;
}

/** One order of the orders list (or of the single-order answer). */
export function toOrderResponse(order: JsonRecord): OrderResponse {
  const [detail] = listOf(order.OrderDetail);
  const status = stringField(detail, 'status') ?? 'OPEN';
  const price = executionPrice(detail);
  return {
    id: stringField(order, 'orderId') ?? '',
    status: STATUS[status] ?? 'accepted',
    status_description: status,
    ...(price !== undefined ? { price } : {}),
  };
}

export interface ListedEtradeOrder {
  order: JsonRecord;
  detail: JsonRecord | undefined;
  placedTime: number | undefined;
}

/** The orders of one page of the list; 204 (no orders) reads as none. */
export function ordersOf(body: unknown): { orders: ListedEtradeOrder[]; marker?: string } {
  const answer = asRecord(asRecord(body)?.OrdersResponse);
  const orders = listOf(answer?.Order).map((order) => {
    const [detail] = listOf(order.OrderDetail);
    return { order, detail, placedTime: decimalField(detail, 'placedTime') };
  });
  const marker = stringField(answer, 'marker');
  return { orders, ...(marker && stringField(answer, 'next') ? { marker } : {}) };
}
