// Whose event it is. Everything we make in Stripe carries our marks: the payment_sessions row id
// (`metadata.payment_session`), the user's key (`metadata.user_key`, `client_reference_id`) and
// the customer stored on the account; they are tried in that order.
import type Stripe from 'stripe';
import { findUserIdByCustomer, findUserIdByKey } from '../../../db/repositories/billing-account.repository.ts';
import {
  findPaymentSession,
  findPaymentSessionByStripeId,
  type PaymentSessionRow,
} from '../../../db/repositories/payment-sessions.repository.ts';
import type { Services } from '../../../services.ts';

/**
 * Our row of a Stripe session: by its id, else by the row id in its metadata (not yet stored),
 * when the metadata's user key is the row's user too: another installation on the same Stripe
 * account numbers its rows alike.
 */
export async function paymentSessionOf(
  services: Services,
  stripeId: string | null,
  metadata: Stripe.Metadata | null | undefined,
): Promise<PaymentSessionRow | undefined> {
  if (stripeId) {
    const row = await findPaymentSessionByStripeId(services.db, stripeId);
    if (row) return row;
  }
  const id = metadata?.payment_session;
  if (!id || !/^\d{1,15}$/.test(id)) return undefined;
  const row = await findPaymentSession(services.db, Number(id));
  // A row already tied to another Stripe session is not this one's.
  if (!row || (stripeId !== null && row.stripeId !== null && row.stripeId !== stripeId)) return undefined;
  const userKey = metadata?.user_key;
  return userKey && (await findUserIdByKey(services.db, userKey)) === row.userId ? row : undefined;
}

export async function userOf(
  services: Services,
  marks: { row?: PaymentSessionRow | undefined; userKeys?: Array<string | null | undefined>; customer?: string | null },
): Promise<number | null> {
  if (marks.row) return marks.row.userId;
  for (const key of marks.userKeys ?? []) {
    if (!key) continue;
    const id = await findUserIdByKey(services.db, key);
    if (id !== null) return id;
  }
  return marks.customer ? findUserIdByCustomer(services.db, marks.customer) : null;
}
