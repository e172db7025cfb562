// The user's Stripe customer, made with the first payment session and kept on the account. Its
// Idempotency-Key is the user's key, so two first purchases at once make one customer.

import { findBillingAccount, storeStripeCustomer } from '../../db/repositories/billing-account.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { type StripeClient, stripeFailure } from './stripe-client.ts';

export async function ensureCustomer(services: Services, stripe: StripeClient, user: UserRow): Promise<string> {
  const account = await findBillingAccount(services.db, user.id);
  if (account?.stripeCustomerId) return account.stripeCustomerId;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  try {
    const customer = await stripe.customers.create(
      { email: user.email, ...(name ? { name } : {}), metadata: { user_key: user.key } },
      { idempotencyKey: `customer:${user.key}` },
    );
    return await storeStripeCustomer(services.db, user.id, customer.id);
  } catch (error) {
    throw stripeFailure(services, error, 'creating a customer');
  }
}
