// Reading Saxo's answers (WIRE.md §3, §5, §6; broker-specs/saxo/fixtures):
//   accounts    {"Data":[{"AccountKey","AccountId","ClientKey","Currency","AccountType","Active","IsTrialAccount",…}]}
//   place       {"OrderId":"76288494"[,"Orders":[{"OrderId"},…]]}; OCO {"Orders":[{"OrderId","ExternalReference"},…]}
//   open order  {"__count":1,"Data":[{"OrderId","Status":"Working","OpenOrderType","Price","Duration",…}]}
//   activity    {"Data":[{"OrderId","Status":"FinalFill","AveragePrice","FilledAmount","ExternalReference",…}]}
import type { OrderResponse } from '@router/orders';
import type { BrokerAccount } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';

export interface SaxoAccounts {
  accounts: BrokerAccount[];
  /** The client the accounts belong to (order and activity queries name it). */
  clientKey: string | undefined;
}

export function toAccounts(body: unknown, simulation: boolean): SaxoAccounts {
  const data = listOf(asRecord(body)?.Data).filter((account) => account.Active !== false);
  const accounts = data.flatMap((account): BrokerAccount[] => {
    const id = stringField(account, 'AccountKey');
    if (!id) return [];
    const number = stringField(account, 'AccountId') ?? '';
    const type = stringField(account, 'AccountType')?.toLowerCase();
    const currency = stringField(account, 'Currency');
    const masked = `…${number.slice(-4)}`;
    return [
      {
        id,
        name: `Saxo ${currency ?? ''} ${masked}`.replace(/\s+/g, ' '),
        dataTitle: masked,
        ...(type ? { dataType: type } : {}),
        ...(currency ? { dataCurrency: currency } : {}),
        demo: simulation || account.IsTrialAccount === true,
      },
    ];
  });
  return { accounts, clientKey: stringField(data[0], 'ClientKey') };
}

const ACTIVITY_STATUS: Record<string, OrderResponse['status']> = {
  FinalFill: 'filled',
  Cancelled: 'canceled',
  Expired: 'canceled',
  DoneForDay: 'canceled',
};

/** An open order (port/v1/orders): working, so accepted. */
export function openOrderResponse(order: JsonRecord): OrderResponse {
  return {
    id: stringField(order, 'OrderId') ?? '',
    status: 'accepted',
    status_description: stringField(order, 'Status') ?? 'Working',
  };
}

/** The last activity of an order (cs/v1/audit/orderactivities): its final state, or still working. */
export function activityResponse(activity: JsonRecord): OrderResponse {
  const status = stringField(activity, 'Status') ?? 'Placed';
  const sub = stringField(activity, 'SubStatus');
  const price = decimalField(activity, 'AveragePrice') ?? decimalField(activity, 'ExecutionPrice');
  const filled = status === 'FinalFill';
  return {
    id: stringField(activity, 'OrderId') ?? '',
    status: ACTIVITY_STATUS[status] ?? (sub === 'Rejected' ? 'rejected' : 'accepted'),
    status_description: sub ? `${status} (${sub})` : status,
    ...(filled && price !== undefined ? { price } : {}),
  };
}

/** Ids an answer says were placed: the entry's OrderId and those of related or OCO orders. */
export function placedIds(body: unknown): string[] {
  const record = asRecord(body);
  const top = stringField(record, 'OrderId');
  const legs = listOf(record?.Orders).flatMap((leg) => {
    const id = stringField(leg, 'OrderId');
    return id ? [id] : [];
  });
  return [...(top ? [top] : []), ...legs];
}

/** The refusals inside an answer: ErrorInfo at the top or on a leg. */
export function legErrors(body: unknown): string[] {
  const record = asRecord(body);
  return [record, ...listOf(record?.Orders)].flatMap((item) => {
    const info = asRecord(item?.ErrorInfo);
    const message = stringField(info, 'Message') ?? stringField(info, 'ErrorCode');
    return message ? [message] : [];
  });
}
