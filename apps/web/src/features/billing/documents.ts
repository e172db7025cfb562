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

/** Account & Billing's figures; SPEC §7: the account query is network-only. */
export const AccountCreditsDocument = graphql(`
  query AccountCredits {
    account {
      balance
      credits
      recurringCredits
      recurringPeriodCredits
      recurringPeriodEnd
      signalsSpent
      unlimited
      cardPayments
    }
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
    }
  }
`);
