import { graphql } from '../../gql/index.ts';

/** Personal API tokens (SPEC §3 UserToken); application grants are listed elsewhere. */
export const UserTokensDocument = graphql(`
  query UserTokens {
    userTokens(isUserApp: false) {
      key
      suffix
      createdAt
      metadata
    }
  }
`);

/** The secret is returned only here, once. */
export const UserTokenCreateDocument = graphql(`
  mutation UserTokenCreate($metadata: JSON) {
    userTokenCreate(metadata: $metadata) {
      key
      secret
    }
  }
`);

export const UserTokenUpdateDocument = graphql(`
  mutation UserTokenUpdate($key: String!, $metadata: JSON!) {
    userTokenUpdate(key: $key, metadata: $metadata) {
      key
      suffix
      createdAt
      metadata
    }
  }
`);

export const UserTokenDeleteDocument = graphql(`
  mutation UserTokenDelete($key: String!) {
    userTokenDelete(key: $key)
  }
`);

/** The applications the user authorized (SPEC §2 Settings: authorized applications). */
export const AuthorizedAppsDocument = graphql(`
  query AuthorizedApps {
    userTokens(isUserApp: true) {
      key
      createdAt
      metadata
      userApp {
        key
        name
      }
    }
  }
`);
