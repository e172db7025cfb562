import { graphql } from '../../gql/index.ts';

/** The caller's connectors, oldest first (SPEC §3 Connector; `accounts` is a JSON string). */
export const ConnectorsDocument = graphql(`
  query Connectors {
    connectors {
      key
      providerName
      accounts
      branch
      status
      isActive
      isDemo
      expiresAt
    }
  }
`);

/** Starts a connection: the credential form, or for 'open' providers the authorization URL. */
export const ConnectorCreateDocument = graphql(`
  mutation ConnectorCreate($providerName: String!) {
    connectorCreate(providerName: $providerName) {
      type
      credentials
      referrerBase
      requestUrl
      redirectUrl
      help
      metadata
    }
  }
`);

/** Credentials in order, or [code, state] from the broker callback. */
export const ConnectorActivateDocument = graphql(`
  mutation ConnectorActivate($providerName: String!, $credentials: [String!]!) {
    connectorActivate(providerName: $providerName, credentials: $credentials) {
      key
      providerName
      accounts
      isActive
      isDemo
      expiresAt
    }
  }
`);

/** Renames accounts: a JSON list of {id, name}; empty names are skipped. */
export const ConnectorUpdateDocument = graphql(`
  mutation ConnectorUpdate($key: String!, $accounts: String!) {
    connectorUpdate(key: $key, accounts: $accounts) {
      key
      accounts
    }
  }
`);

/** Deletes the connector with its hooks and notification settings. */
export const ConnectorDeleteDocument = graphql(`
  mutation ConnectorDelete($key: String!) {
    connectorDelete(key: $key)
  }
`);

/** Server names for a connect form's branch field (SPEC §7 providerMetatraderBranches). */
export const ProviderBranchesDocument = graphql(`
  query ProviderBranches($search: String!) {
    providerMetatraderBranches(search: $search) {
      name
      broker
      platform
    }
  }
`);
