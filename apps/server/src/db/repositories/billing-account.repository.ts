// The billing side of an account: its Stripe customer and subscription, the plan shown on
// Account & Billing (SPEC §3 Account.type, product, metadata.recurring), professional status and
// its application. Credits themselves move only through credits.repository.ts.
import { GROUP } from '@router/shared';
import { eq, sql } from 'drizzle-orm';
import { ACCOUNT_TYPE, accounts, professionalApplications, users } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export interface BillingAccount {
  userId: number;
  /** SPEC §3 type: RECURRING while a plan runs. */
  type: number;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** The plan shown (SPEC §3 Account.product): its credits per period, whether it sells professional status. */
  product: unknown;
}

export async function findBillingAccount(db: Executor, userId: number): Promise<BillingAccount | undefined> {
  const [row] = await db
    .select({
      userId: accounts.userId,
      type: accounts.type,
      stripeCustomerId: accounts.stripeCustomerId,
      stripeSubscriptionId: accounts.stripeSubscriptionId,
      product: accounts.product,
    })
    .from(accounts)
    .where(eq(accounts.userId, userId))
    .limit(1);
  return row;
}

/** Keeps the first customer stored (two requests at once made the same one: one Idempotency-Key). */
export async function storeStripeCustomer(db: Executor, userId: number, customerId: string): Promise<string> {
  await db.execute(sql`insert into accounts (user_id) values (${userId}) on conflict (user_id) do nothing`);
  const { rows } = await db.execute<{ id: string } & Record<string, unknown>>(sql`
    update accounts set stripe_customer_id = coalesce(stripe_customer_id, ${customerId})
    where user_id = ${userId} returning stripe_customer_id as id`);
  return rows[0]?.id ?? customerId;
}

/** The one account holding this Stripe customer, or null (none, or more than one). */
export async function findUserIdByCustomer(db: Executor, customerId: string): Promise<number | null> {
  const rows = await db
    .select({ userId: accounts.userId })
    .from(accounts)
    .where(eq(accounts.stripeCustomerId, customerId))
    .limit(2);
  return rows.length === 1 ? (rows[0]?.userId ?? null) : null;
}

export async function findUserIdByKey(db: Executor, key: string): Promise<number | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.key, key)).limit(1);
  return row?.id ?? null;
}

/** What Account & Billing shows of a subscription. */
export interface PlanProjection {
  subscriptionId: string;
  /** Type RECURRING with the plan while it runs; BASE without a product once it ended. */
  running: boolean;
  product: Record<string, unknown> | null;
  /** metadata.recurring: cancelAt (seconds), status, and the last failed payment if any. */
  recurring: Record<string, unknown>;
}

/**
 * Writes the subscription's state onto the account (the caller decided it is the current one).
 * A failed payment noted earlier (mergeRecurring) stays until the plan is active again.
 */
export async function projectPlan(db: Executor, userId: number, plan: PlanProjection): Promise<void> {
  const status = String(plan.recurring.status ?? '');
  await db.execute(sql`
    update accounts set
      type = ${plan.running ? ACCOUNT_TYPE.RECURRING : ACCOUNT_TYPE.BASE},
      product = ${plan.product === null ? null : JSON.stringify(plan.product)}::jsonb,
      stripe_subscription_id = ${plan.subscriptionId},
      metadata = jsonb_set(metadata, '{recurring}', ${JSON.stringify(plan.recurring)}::jsonb
        || case when ${status} not in ('active', 'trialing') and stripe_subscription_id = ${plan.subscriptionId}
             and jsonb_typeof(metadata -> 'recurring' -> 'paymentFailed') = 'object'
           then jsonb_build_object('paymentFailed', metadata -> 'recurring' -> 'paymentFailed') else '{}'::jsonb end),
      updated_at = now()
    where user_id = ${userId}`);
}

/** Whether the account shows this subscription as a plan that sells professional status. */
export async function showsProfessionalPlan(db: Executor, userId: number, subscriptionId: string): Promise<boolean> {
  const { rows } = await db.execute(sql`
    select 1 from accounts where user_id = ${userId} and stripe_subscription_id = ${subscriptionId}
      and product ->> 'professional' = 'true'`);
  return rows.length > 0;
}

/**
 * metadata.membership: a plan for professional status alone that runs beside the plan shown (one
 * for credits), as metadata.recurring holds that one, with its name and price. A failed payment
 * noted earlier stays until it is active again.
 */
export async function projectMembership(
  db: Executor,
  userId: number,
  membership: Record<string, unknown> & { subscriptionId: string },
): Promise<void> {
  const status = String(membership.status ?? '');
  await db.execute(sql`
    update accounts set
      metadata = jsonb_set(metadata, '{membership}', ${JSON.stringify(membership)}::jsonb
        || case when ${status} not in ('active', 'trialing')
             and metadata -> 'membership' ->> 'subscriptionId' = ${membership.subscriptionId}
             and jsonb_typeof(metadata -> 'membership' -> 'paymentFailed') = 'object'
           then jsonb_build_object('paymentFailed', metadata -> 'membership' -> 'paymentFailed') else '{}'::jsonb end),
      updated_at = now()
    where user_id = ${userId}`);
}

/**
 * A plan with credits about to be shown (`subscriptionId`): the plan for professional status alone
 * the account shows, running, moves to metadata.membership (it goes on beside it).
 */
export async function keepShownAsMembership(db: Executor, userId: number, subscriptionId: string): Promise<void> {
  await db.execute(sql`
    update accounts set metadata = jsonb_set(metadata, '{membership}', product || (metadata -> 'recurring'))
    where user_id = ${userId} and type = ${ACCOUNT_TYPE.RECURRING} and stripe_subscription_id <> ${subscriptionId}
      and product ->> 'credits' = '0' and product ->> 'professional' = 'true'
      and jsonb_typeof(metadata -> 'recurring') = 'object'`);
}

/** Removes metadata.membership when it is this subscription's (it ended, or the account shows it). */
export async function clearMembership(db: Executor, userId: number, subscriptionId: string): Promise<boolean> {
  const { rowCount } = await db.execute(sql`
    update accounts set metadata = metadata - 'membership', updated_at = now()
    where user_id = ${userId} and metadata -> 'membership' ->> 'subscriptionId' = ${subscriptionId}`);
  return (rowCount ?? 0) > 0;
}

/**
 * Merges `values` into metadata.recurring (e.g. a failed payment) when `subscriptionId` is the
 * account's, or into metadata.membership when it is that plan's.
 */
export async function mergeRecurring(
  db: Executor,
  userId: number,
  subscriptionId: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  const { rowCount } = await db.execute(sql`
    update accounts set
      metadata = jsonb_set(metadata, '{recurring}',
        (case when jsonb_typeof(metadata -> 'recurring') = 'object' then metadata -> 'recurring' else '{}'::jsonb end)
          || ${JSON.stringify(values)}::jsonb),
      updated_at = now()
    where user_id = ${userId} and stripe_subscription_id = ${subscriptionId}`);
  const membership = await db.execute(sql`
    update accounts set
      metadata = jsonb_set(metadata, '{membership}', (metadata -> 'membership') || ${JSON.stringify(values)}::jsonb),
      updated_at = now()
    where user_id = ${userId} and metadata -> 'membership' ->> 'subscriptionId' = ${subscriptionId}`);
  return (rowCount ?? 0) + (membership.rowCount ?? 0) > 0;
}

/**
 * Removes the failed payment noted for `invoiceId` (metadata.recurring or metadata.membership):
 * Stripe voided that invoice, nothing is owed on it any more.
 */
export async function clearPaymentFailed(db: Executor, userId: number, invoiceId: string): Promise<boolean> {
  let changed = 0;
  for (const key of ['recurring', 'membership']) {
    const { rowCount } = await db.execute(sql`
      update accounts set metadata = jsonb_set(metadata, ${`{${key}}`}::text[], (metadata -> ${key}) - 'paymentFailed'),
        updated_at = now()
      where user_id = ${userId} and metadata -> ${key} -> 'paymentFailed' ->> 'invoiceId' = ${invoiceId}`);
    changed += rowCount ?? 0;
  }
  return changed > 0;
}

export async function saveProfessionalApplication(
  db: Executor,
  userId: number,
  answers: Record<string, unknown>,
): Promise<void> {
  await db
    .insert(professionalApplications)
    .values({ userId, answers })
    .onConflictDoUpdate({ target: professionalApplications.userId, set: { answers, submittedAt: new Date() } });
}

/** When the user last sent their application for professional status, or null when never. */
export async function professionalAppliedAt(db: Executor, userId: number): Promise<Date | null> {
  const [row] = await db
    .select({ submittedAt: professionalApplications.submittedAt })
    .from(professionalApplications)
    .where(eq(professionalApplications.userId, userId))
    .limit(1);
  return row?.submittedAt ?? null;
}

export async function hasProfessionalApplication(db: Executor, userId: number): Promise<boolean> {
  return (await professionalAppliedAt(db, userId)) !== null;
}

/**
 * Professional status (group 16) as its payment stands: held while the payment is kept, taken
 * away once all of it was given back (refunds, a lost dispute). False when it was so already.
 */
export async function setProfessionalHeld(db: Executor, userId: number, held: boolean): Promise<boolean> {
  const { rows } = await db.execute(sql`
    update users set "group" = case when ${held} then "group" | ${GROUP.PROFESSIONAL}
                                    else "group" & ~${GROUP.PROFESSIONAL}::int end
    where id = ${userId} and ("group" & ${GROUP.PROFESSIONAL} <> 0) <> ${held}
    returning id`);
  return rows.length > 0;
}

export async function markProfessionalPaid(db: Executor, userId: number): Promise<void> {
  await db
    .update(professionalApplications)
    .set({ paidAt: new Date() })
    .where(eq(professionalApplications.userId, userId));
}
