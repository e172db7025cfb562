// What the account holds of one symbol, as MetaApi lists it (WIRE §6): its open (pending) orders
// or its positions, and one pending order canceled (ORDER_CANCEL, WIRE §7).
import type { BrokerContext } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import type { HttpClient } from '../../core/http.ts';
import { listOf, stringField } from '../../core/json-read.ts';
import { accountPath, type MetaApiLink } from './client.ts';
import { sendTrade } from './trade.ts';

export async function symbolItems(http: HttpClient, link: MetaApiLink, what: 'orders' | 'positions', symbol: string) {
  const { body } = await http.request({ path: `${accountPath(link.metaApiId)}/${what}` });
  return listOf(body).filter((item) => stringField(item, 'symbol') === symbol);
}

/** Cancels one pending order: false when it is gone already (filled or canceled meanwhile). */
export async function cancelPendingOrder(ctx: BrokerContext, http: HttpClient, link: MetaApiLink, orderId: string) {
  try {
    await sendTrade(ctx, http, link, { actionType: 'ORDER_CANCEL', orderId });
    return true;
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return false;
    throw error;
  }
}
