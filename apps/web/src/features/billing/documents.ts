import { graphql } from '../../gql/index.ts';

/** What the low-credit banner needs (every signed-in screen). */
export const CreditsBannerDocument = graphql(`
  query CreditsBanner {
    account {
      balance
      lastGrant
      unlimited
      cardPayments
    }
  }
`);

/** Account & Billing: figures, plan and payments; SPEC §7: the account query is network-only. */
export const AccountCreditsDocument = graphql(`
  query AccountCredits {
    account {
      type
      balance
      credits
      recurringCredits
      recurringPeriodCredits
      recurringPeriodEnd
      signalsSpent
      unlimited
      cardPayments
      professionalAppliedAt
      metadata
      product {
        name
        credits
        price
        currency
        interval
        professional
      }
      payments {
        credits
        price
        currency
        createdAt
        stripeInvoiceId
        description
        interval
        refunded
        dispute {
          status
          amount
        }
      }
    }
  }
`);

/** What is on sale: Stripe prices with credits (packs, plans) or professional status. */
export const AccountProductsDocument = graphql(`
  query AccountProducts {
    accountProducts {
      stripePriceId
      name
      description
      credits
      price
      currency
      type
      interval
      professional
    }
  }
`);

/** A Stripe Checkout session for a price, or the billing portal without one. */
export const AccountPaymentSessionDocument = graphql(`
  query AccountPaymentSession($stripePriceId: String, $coupon: String) {
    accountPaymentSession(stripePriceId: $stripePriceId, coupon: $coupon) {
      url
    }
  }
`);

export const AccountInvoiceDocument = graphql(`
  query AccountInvoice($id: String!) {
    accountInvoice(id: $id) {
      id
      invoicePdf
    }
  }
`);

/** SPEC §7 accountSignupPaymentSession: the card form's client secret after sign-up. */
export const AccountSignupPaymentSessionDocument = graphql(`
  query AccountSignupPaymentSession(
    $email: String!
    $stripePriceId: String!
    $successUrl: String
    $cancelUrl: String
    $coupon: String
    $promotionCode: String
  ) {
    accountSignupPaymentSession(
      email: $email
      stripePriceId: $stripePriceId
      successUrl: $successUrl
      cancelUrl: $cancelUrl
      coupon: $coupon
      promotionCode: $promotionCode
    ) {
      clientSecret
      total
      currency
      description
      publishableKey
    }
  }
`);

/** SPEC §7 accountUpgrade: the professional application. */
export const AccountUpgradeDocument = graphql(`
  mutation AccountUpgrade($metadata: JSON!) {
    accountUpgrade(metadata: $metadata)
  }
`);

/** The credit ledger, newest first; paging sends createdAtFrom = the createdAt of the last entry shown. */
export const AccountLedgerDocument = graphql(`
  query AccountLedger($createdAtFrom: Float) {
    accountLedger(createdAtFrom: $createdAtFrom) {
      id
      createdAt
      credits
      cause
      balanceAfter
      note
      dispute
    }
  }
`);
