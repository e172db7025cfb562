import { graphql } from '../../gql/index.ts';

/** Tells when the caller's activity, stats or webhooks changed (Server-Sent Events). */
export const LiveDocument = graphql(`
  subscription Live {
    live {
      kind
      at
    }
  }
`);
