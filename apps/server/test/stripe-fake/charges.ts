// Refunds and disputes of a charge in the fake: a refund (POST /v1/refunds, or the dashboard's
// button: `refund`) raises the charge's amount_refunded and sends charge.refunded with the
// charge; a dispute opened by the card's bank (`openDispute`) sends charge.dispute.created, and
// closed (`closeDispute`) charge.dispute.closed; an inquiry (`openInquiry`: warning_needs_response,
// charge.dispute.created) that the bank escalates to a chargeback (`escalateInquiry`: the same
// dispute, needs_response) sends charge.dispute.updated and charge.dispute.funds_withdrawn; a
// refund that fails later (`failRefund`) sends charge.refund.updated, refund.updated and
// refund.failed.

import { makeDispute, makeRefund } from './billing-objects.ts';
import { InvalidRequest } from './checkout.ts';
import type { StripeObject } from './fixtures.ts';
import type { Store } from './store.ts';
import type { FakeParts, Webhooks } from './webhooks.ts';

export class Charges {
  private readonly store: Store;
  private readonly webhooks: Webhooks;

  constructor(parts: FakeParts) {
    ({ store: this.store, webhooks: this.webhooks } = parts);
  }

  /** The charge of a charge id or of a payment intent id. */
  chargeOf(id: string): StripeObject {
    if (id.startsWith('pi_'))
      return this.store.get('charge', String(this.store.get('payment_intent', id).latest_charge));
    return this.store.get('charge', id);
  }

  /** Refunds `amount` (default: what is left) of a charge: the refund; charge.refunded is sent. */
  refund(
    id: string,
    amount?: number,
    reason: string | null = null,
    metadata: Record<string, string> = {},
  ): StripeObject {
    const charge = this.chargeOf(id);
    // As Stripe (charge_disputed): a charge the bank took back cannot be refunded.
    if (charge.disputed)
      throw new InvalidRequest(`Charge ${String(charge.id)} has been charged back; cannot issue a refund.`);
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    const value = amount ?? left;
    if (!Number.isInteger(value) || value <= 0 || value > left) {
      throw new InvalidRequest(
        `Refund amount (${value}) is greater than unrefunded amount on charge (${left})`,
        'amount',
      );
    }
    const refund = makeRefund(this.store, charge, value, reason, metadata);
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded = Number(charge.amount_refunded) + value;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.webhooks.emit('charge.refunded', charge, previous);
    return refund;
  }

  /**
   * A refund that fails after it was made (the card closed, the bank refused it): its money goes
   * back to the merchant's balance, the charge's amount_refunded drops, and Stripe sends
   * charge.refund.updated, refund.updated and refund.failed with the refund.
   */
  failRefund(id: string, reason = 'expired_or_canceled_card'): StripeObject {
    const refund = this.store.get('refund', id);
    const charge = this.store.get('charge', String(refund.charge));
    const previous = { status: refund.status, failure_reason: null };
    Object.assign(refund, { status: 'failed', failure_reason: reason });
    charge.amount_refunded = Number(charge.amount_refunded) - Number(refund.amount);
    charge.refunded = false;
    for (const type of ['charge.refund.updated', 'refund.updated', 'refund.failed']) {
      this.webhooks.emit(type, refund, previous);
    }
    return refund;
  }

  /** A dispute of the whole charge opened by the card's bank (needs_response): charge.dispute.created. */
  openDispute(id: string): StripeObject {
    return this.openCase(id, 'needs_response');
  }

  /** An inquiry of the whole charge by the card's bank (warning_needs_response): charge.dispute.created. */
  openInquiry(id: string): StripeObject {
    return this.openCase(id, 'warning_needs_response');
  }

  /** A dispute or inquiry of what is left of the charge: charge.dispute.created (a chargeback marks the charge disputed). */
  private openCase(id: string, status: 'needs_response' | 'warning_needs_response'): StripeObject {
    const charge = this.chargeOf(id);
    if (status === 'needs_response') charge.disputed = true;
    const amount = Number(charge.amount) - Number(charge.amount_refunded);
    const dispute = makeDispute(this.store, charge, amount, status);
    this.webhooks.emit('charge.dispute.created', dispute);
    return dispute;
  }

  /**
   * The charge's inquiry escalated by the bank to a chargeback (the same dispute, needs_response:
   * the money is withdrawn): charge.dispute.updated, charge.dispute.funds_withdrawn.
   */
  escalateInquiry(id: string): StripeObject {
    const charge = this.chargeOf(id);
    const dispute = this.store
      .all('dispute')
      .find((d) => d.charge === charge.id && d.status === 'warning_needs_response');
    if (!dispute) throw new InvalidRequest(`No inquiry of ${String(charge.id)}`, 'charge');
    charge.disputed = true;
    dispute.status = 'needs_response';
    this.webhooks.emit('charge.dispute.updated', dispute, { status: 'warning_needs_response' });
    this.webhooks.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  }

  /**
   * The charge's open dispute (else a new one of the whole charge) closed with `status` ('lost',
   * 'won'): charge.dispute.closed.
   */
  closeDispute(id: string, status: 'lost' | 'won'): StripeObject {
    const charge = this.chargeOf(id);
    charge.disputed = true;
    const open = this.store
      .all('dispute')
      .find((d) => d.charge === charge.id && (d.status === 'needs_response' || d.status === 'under_review'));
    const dispute =
      open ?? makeDispute(this.store, charge, Number(charge.amount) - Number(charge.amount_refunded), status);
    const previous = { status: open?.status ?? 'under_review' };
    dispute.status = status;
    this.webhooks.emit('charge.dispute.closed', dispute, previous);
    return dispute;
  }
}
