import { graphql } from '../../gql/index.ts';

/** A professional's developer applications (SPEC §3 UserApp). */
export const UserAppsDocument = graphql(`
  query UserApps {
    userApps {
      key
      name
      description
      redirectUrl
      createdAt
    }
  }
`);

/** The client secret is returned only here, once. */
export const UserAppCreateDocument = graphql(`
  mutation UserAppCreate($name: String!, $description: String, $redirectUrl: String!) {
    userAppCreate(name: $name, description: $description, redirectUrl: $redirectUrl) {
      key
      secret
    }
  }
`);

export const UserAppDeleteDocument = graphql(`
  mutation UserAppDelete($key: String!) {
    userAppDelete(key: $key)
  }
`);

/** A new client secret for a leaked one, returned only here, once. */
export const UserAppSecretRotateDocument = graphql(`
  mutation UserAppSecretRotate($key: String!) {
    userAppSecretRotate(key: $key) {
      key
      secret
    }
  }
`);

/** metadata: the fields to change, {name?, description?, redirectUrl?}. */
export const UserAppUpdateDocument = graphql(`
  mutation UserAppUpdate($key: String!, $metadata: JSON!) {
    userAppUpdate(key: $key, metadata: $metadata) {
      key
      name
      description
      redirectUrl
      createdAt
    }
  }
`);
