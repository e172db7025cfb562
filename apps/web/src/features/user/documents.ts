import { graphql } from '../../gql/index.ts';

/** The signed-in (or proxied) user; always fetched network-only (SPEC §4 Session, §7). */
export const UserDocument = graphql(`
  query User {
    user {
      key
      group
      email
      firstName
      lastName
      reamazeAuthKey
    }
  }
`);
