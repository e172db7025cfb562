// Reading Schwab's answers: accounts, positions and orders. Samples:
//   GET /accounts/accountNumbers  [{"accountNumber":"12345678","hashValue":"E5B1D0C3A9F84D2B"}]
//   GET /accounts/{hash}?fields=positions  {"securitiesAccount":{"type":"MARGIN","accountNumber":"12345678",
//     "positions":[{"longQuantity":10,"shortQuantity":0,"averagePrice":180.1,"marketValue":1850,
//     "instrument":{"assetType":"EQUITY","symbol":"AAPL"}}],"currentBalances":{"cashBalance":...}}}
//   GET /orders/{id}  {"orderId":1000000001,"status":"FILLED","orderActivityCollection":[{"executionLegs":
//     [{"price":185.2,"quantity":10}]}], ...}
import type { OrderResponse } from '@router/orders';
import type { BrokerAccount, Holding, Holdings } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';

export function accountNumbers(body: unknown): Array<{ accountNumber: string; hashValue: string }> {
  return listOf(body).flatMap((item) => {
    const accountNumber = stringField(item, 'accountNumber');
    const hashValue = stringField(item, 'hashValue');
    return accountNumber && hashValue ? [{ accountNumber, hashValue }] : [];
  });
}

/** Accounts by hash, titled by the last digits of the number (the full number stays private). */
export function toAccounts(numbers: ReturnType<typeof accountNumbers>, details: unknown): BrokerAccount[] {
  const types = new Map<string, string>();
  for (const item of listOf(details)) {
    const account = asRecord(item.securitiesAccount);
    const number = stringField(account, 'accountNumber');
    const type = stringField(account, 'type');
    if (number && type) types.set(number, type);
  }
  return numbers.map(({ accountNumber, hashValue }) => {
    const type = types.get(accountNumber)?.toLowerCase();
    const masked = `…${accountNumber.slice(-4)}`;
    return {
      id: hashValue,
      name: `Schwab ${type ?? 'account'} ${masked}`,
      dataTitle: masked,
      ...(type ? { dataType: type } : {}),
      dataCurrency: 'USD',
      demo: false,
    };
  });
}

export interface SchwabPosition {
  symbol: string;
  assetType: string;
  /** Long positive, short negative. */
  quantity: number;
  averagePrice?: number;
  marketValue?: number;
}

export function positionsOf(body: unknown): SchwabPosition[] {
  const account = asRecord(asRecord(body)?.securitiesAccount);
  return listOf(account?.positions).flatMap((item) => {
    const instrument = asRecord(item.instrument);
    const symbol = stringField(instrument, 'symbol');
    const quantity = (decimalField(item, 'longQuantity') ?? 0) - (decimalField(item, 'shortQuantity') ?? 0);
    if (!symbol || quantity === 0) return [];
    const averagePrice = decimalField(item, 'averagePrice');
    const marketValue = decimalField(item, 'marketValue');
    return [
      {
        symbol,
        assetType: stringField(instrument, 'assetType') ?? 'EQUITY',
        quantity,
        ...(averagePrice !== undefined ? { averagePrice } : {}),
        ...(marketValue !== undefined ? { marketValue } : {}),
      },
    ];
  });
}

export function holdingsOf(body: unknown): Holdings {
  const account = asRecord(asRecord(body)?.securitiesAccount);
  const balances = asRecord(account?.currentBalances);
  const cash = decimalField(balances, 'cashBalance') ?? decimalField(balances, 'totalCash');
  const equity = decimalField(balances, 'liquidationValue') ?? decimalField(balances, 'equity');
  const buyingPower = decimalField(balances, 'buyingPower') ?? decimalField(balances, 'cashAvailableForTrading');
  const positions: Holding[] = positionsOf(body).map(({ assetType: _, ...position }) => position);
  return {
    ...(cash !== undefined ? { cash } : {}),
    ...(equity !== undefined ? { equity } : {}),
    ...(buyingPower !== undefined ? { buyingPower } : {}),
    currency: 'USD',
    positions,
  };
}

const STATUS: Record<string, OrderResponse['status']> = {
  FILLED: 'filled',
  REJECTED: 'rejected',
  CANCELED: 'canceled',
  EXPIRED: 'canceled',
  REPLACED: 'canceled',
};

/** Average fill price over the execution legs, if anything filled. */
function fillPrice(order: JsonRecord): number | undefined {
  let quantity = 0;
  let value = 0;
  for (const activity of listOf(order.orderActivityCollection)) {
    for (const leg of listOf(activity.executionLegs)) {
      const legQuantity = decimalField(leg, 'quantity') ?? 0;
      quantity += legQuantity;
      value += legQuantity * (decimalField(leg, 'price') ?? 0);
    }
  }
  return quantity > 0 ? Math.round((value / quantity) * 10_000) / 10_000 : undefined;
}

export function toOrderResponse(body: unknown, fallbackId = ''): OrderResponse {
  const order = asRecord(body) ?? {};
  const status = stringField(order, 'status') ?? 'UNKNOWN';
  const price = fillPrice(order);
  const description = stringField(order, 'statusDescription');
  return {
    id: stringField(order, 'orderId') ?? fallbackId,
    status: STATUS[status] ?? 'accepted',
    status_description: description ? `${status}: ${description}` : status,
    ...(price !== undefined ? { price } : {}),
  };
}

/** "https://api.schwabapi.com/trader/v1/accounts/E5B1.../orders/1000000001" → "1000000001". */
export function orderIdFromLocation(location: string | null): string | undefined {
  return location ? /\/orders\/([^/?#]+)\/?(?:[?#].*)?$/.exec(location)?.[1] : undefined;
}
