// Webull's answers read into ours (WIRE.md §5-6, the skills formatters' keys). A placement answers
// {"client_order_id","order_id"} (a combo also its client_combo_order_id and combo_order_id), with
// no status; the order detail {"client_order_id","combo_type","orders":[{order_id, status,
// filled_quantity, total_quantity, filled_price, …}]}. Statuses: SUBMITTED, PARTIAL_FILLED, FILLED,
// CANCELLED, FAILED.
import type { OrderResponse } from '@router/orders';
import type { Holdings } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { WEBULL_TITLE } from './descriptor.ts';

const STATUS: Record<string, OrderResponse['status']> = {
  FILLED: 'filled',
  CANCELLED: 'canceled',
  FAILED: 'rejected',
};

/** The placement's answer: the (master) order's id, working. */
export function placedOrder(body: unknown): OrderResponse {
  const id = stringField(body, 'order_id') ?? stringField(body, 'combo_order_id');
  if (!id)
    throw new BrokerError('BrokerUnavailable', WEBULL_TITLE, 'no order id in the answer', { outcomeUnknown: true });
  return { id, status: 'accepted', status_description: 'Webull order submitted' };
}

export function fromWebullOrder(order: JsonRecord): OrderResponse {
  const id = stringField(order, 'order_id');
  const status = stringField(order, 'status');
  if (!id || !status) throw new BrokerError('BrokerUnavailable', WEBULL_TITLE, 'unexpected order in the answer');
  const filled = decimalField(order, 'filled_quantity') ?? 0;
  const total = decimalField(order, 'total_quantity') ?? decimalField(order, 'quantity');
  const price = decimalField(order, 'filled_price');
  const progress = status === 'PARTIAL_FILLED' && total !== undefined ? `, ${filled} of ${total} filled` : '';
  return {
    id,
    status: STATUS[status] ?? 'accepted',
    status_description: `Webull order ${status.toLowerCase().replace(/_/g, ' ')}${progress}`,
    ...(price !== undefined && price > 0 && filled > 0 ? { price } : {}),
  };
}

/** Of an order detail, the order with this client id (a combo lists its master and exits). */
export function detailOrder(detail: unknown, clientId: string): JsonRecord | undefined {
  const orders = listOf(asRecord(detail)?.orders);
  return orders.find((order) => stringField(order, 'client_order_id') === clientId) ?? orders[0];
}

export function holdingsOf(balance: unknown, positions: unknown): Holdings {
  const usd = listOf(asRecord(balance)?.account_currency_assets).find(
    (asset) => stringField(asset, 'currency') === 'USD',
  );
  const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    ...optional('cash', decimalField(balance, 'total_cash_balance')),
    ...optional('equity', decimalField(balance, 'total_net_liquidation_value')),
    ...optional('buyingPower', decimalField(usd, 'buying_power')),
    currency: stringField(balance, 'total_asset_currency') ?? 'USD',
    positions: listOf(positions).map((position) => {
      const quantity = decimalField(position, 'quantity') ?? 0;
      const last = decimalField(position, 'last_price');
      const value = decimalField(position, 'market_value') ?? (last !== undefined ? quantity * last : undefined);
      return {
        symbol: stringField(position, 'symbol') ?? '',
        quantity,
        ...optional('averagePrice', decimalField(position, 'cost_price')),
        ...optional('marketValue', value),
      };
    }),
  };
}
