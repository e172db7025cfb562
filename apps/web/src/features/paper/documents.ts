import { graphql } from '../../gql/index.ts';

export const PaperAccountFieldsFragment = graphql(`
  fragment PaperAccountFields on PaperAccount {
    connectorKey
    accountId
    name
    currency
    startingCash
    cash
    equity
    buyingPower
    asOf
    resetAt
    openOrderCount
    positions {
      symbol
      class
      quantity
      averagePrice
      price
      marketValue
      unrealizedPnl
    }
    openOrders {
      id
      clientOrderId
      symbol
      class
      action
      type
      quantity
      limitPrice
      stopPrice
      duration
      statusDescription
      createdAt
      legs {
        symbol
        action
        ratio
      }
    }
    fills {
      id
      clientOrderId
      symbol
      side
      quantity
      price
      filledAt
      description
    }
  }
`);

/** A paper account of the caller: balances, positions, open orders and recent fills. */
export const PaperAccountDocument = graphql(`
  query PaperAccount($connectorKey: String!, $accountId: String!) {
    paperAccount(connectorKey: $connectorKey, accountId: $accountId) {
      ...PaperAccountFields
    }
  }
`);

/** Back to the starting cash: open orders canceled, positions cleared. */
export const PaperAccountResetDocument = graphql(`
  mutation PaperAccountReset($connectorKey: String!, $accountId: String!) {
    paperAccountReset(connectorKey: $connectorKey, accountId: $accountId) {
      ...PaperAccountFields
    }
  }
`);
