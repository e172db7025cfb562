// POST /api/stripe/webhook (issue 14 point 4): Stripe's word is the only thing that grants.
//   1. Stripe-Signature checked on the raw bytes with STRIPE_WEBHOOK_SECRET (any of several v1
//      signatures, at most 300 s old): otherwise 400, nothing read further.
//   2. A signed body that is not an event: 400. A type we do not act on: 200, nothing stored.
//   3. An event id taken before: 200 at once.
//   4. The handler reads what it needs from Stripe (whose event it is), then one transaction
//      claims the event id (unique), takes the user's lock (lockStripeUser: their events apply
//      one at a time, at this instance or another) and applies the change through credits.ts,
//      reading Stripe's state again under the lock where the change depends on it: a repeat, an
//      out-of-order event or the same event at two instances at once finds the id claimed or the
//      grant booked (grants are keyed by session and invoice), and changes nothing; the state
//      written is the newest the lock's last holder could read. A booking and a refund of the
//      same payment also take turns on that payment's lock (lockStripePayment, reversal.ts).
//      200 only after the commit; any error answers 500 and Stripe delivers again. A transaction
//      that met a live signal whose outcome is being written (HeldSignalBusy) is run again first.
import { setTimeout as wait } from 'node:timers/promises';
import { z } from 'zod';
import { HeldSignalBusy } from '../../db/repositories/held-credits.repository.ts';
import {
  claimEvent,
  eventSeen,
  lockStripeUser,
  setEventOutcome,
} from '../../db/repositories/stripe-events.repository.ts';
import type { Services } from '../../services.ts';
import { userSessionsChanged } from '../auth/session-changes.ts';
import { EVENT_HANDLERS } from './events/index.ts';
import { loadStripe, stripeClient } from './stripe-client.ts';

/** Stripe's default, stated so a library change cannot widen it. */
export const SIGNATURE_TOLERANCE_S = 300;

export interface WebhookAnswer {
  status: 200 | 400 | 500;
  body: { received: boolean; message?: string; duplicate?: boolean; handled?: boolean };
}

const eventSchema = z.object({
  id: z.string().regex(/^evt_\w+$/),
  object: z.literal('event'),
  type: z.string().min(1).max(100),
  created: z.number().int().positive(),
  data: z.object({ object: z.looseObject({ id: z.string().optional() }) }),
});

/** Events of a payment taken, whose goods (credits, a plan) go to the user they name. */
const DELIVERS: ReadonlySet<string> = new Set(['checkout.session.completed', 'invoice.paid']);

const stripeIdOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : null;

const refuse = (message: string): WebhookAnswer => ({ status: 400, body: { received: false, message } });

/** Runs of an event's transaction while a live signal's outcome is being written (HeldSignalBusy). */
const BUSY_ATTEMPTS = 10;

/**
 * Runs the event's transaction again while it ended on a live signal whose outcome is being
 * written (held-credits.repository.ts HeldSignalBusy: that statement waits for the account the
 * transaction held, and writes in milliseconds once it ended). After BUSY_ATTEMPTS the error
 * answers 500 and Stripe delivers the event again.
 */
async function whileSignalBusy<T>(services: Services, eventId: string, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof HeldSignalBusy) || attempt >= BUSY_ATTEMPTS) throw error;
      services.log.warn({ event: eventId, attempt }, 'stripe event waits for a live signal’s outcome');
      await wait(20 * attempt);
    }
  }
}

export async function receiveStripeEvent(
  services: Services,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  const secret = services.config.STRIPE_WEBHOOK_SECRET;
  if (!secret) return refuse('Stripe webhooks are not configured on this server');
  if (!signature) return refuse('Missing Stripe-Signature');
  let parsed: unknown;
  try {
    const Stripe = await loadStripe();
    parsed = Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_S);
  } catch (error) {
    // The SDK's reason (no valid signature, too old, not JSON) names no secret.
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'invalid';
    services.log.warn({ reason }, 'stripe webhook refused');
    return refuse('Invalid Stripe-Signature');
  }
  const event = eventSchema.safeParse(parsed);
  if (!event.success) return refuse('Not a Stripe event');
  const { id, type, created, data } = event.data;
  const handler = EVENT_HANDLERS[type];
  if (!handler) return { status: 200, body: { received: true, handled: false } };
  try {
    if (await eventSeen(services.db, id)) return { status: 200, body: { received: true, duplicate: true } };
    const stripe = await stripeClient(services);
    const effect = await handler({ services, stripe, eventId: id }, data.object);
    const outcome = await whileSignalBusy(services, id, () =>
      services.db.transaction(async (tx) => {
        if (!(await claimEvent(tx, { id, type, created, objectId: data.object.id ?? null }))) return 'duplicate';
        let result: string;
        if ('apply' in effect) {
          await lockStripeUser(tx, effect.userId);
          result = await effect.apply(tx);
        } else result = effect.outcome;
        await setEventOutcome(tx, id, result, effect.userId);
        return result;
      }),
    );
    // A grant may change the user's group (professional status): resolve their sessions afresh,
    // as an administrator's change does, so what was paid for opens at once.
    if (outcome === 'applied' && effect.userId !== null) await userSessionsChanged(services, effect.userId);
    if (outcome === 'unmatched' && DELIVERS.has(type)) {
      // Paid, and nobody to deliver it to (the user gone, or not ours): the operator must look.
      // Still 200: a retry would find nobody either. Stripe's ids only, never a secret.
      const object = data.object as { customer?: unknown; payment_intent?: unknown };
      services.log.warn(
        {
          event: id,
          type,
          object: data.object.id ?? null,
          customer: stripeIdOf(object.customer),
          paymentIntent: stripeIdOf(object.payment_intent),
        },
        'stripe payment for no user of ours: nothing delivered; refund or assign it in Stripe',
      );
    } else services.log.info({ event: id, type, outcome, userId: effect.userId }, 'stripe event');
    return { status: 200, body: { received: true, ...(outcome === 'duplicate' ? { duplicate: true } : {}) } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    services.log.error({ event: id, type, message }, 'stripe event failed; Stripe will deliver it again');
    return { status: 500, body: { received: false, message: 'Not processed; please retry' } };
  }
}
