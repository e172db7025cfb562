import { graphql } from '../../gql/index.ts';

/** Every provider as one JSON string of Provider[] (SPEC §3 Provider). */
export const ProvidersDocument = graphql(`
  query Providers {
    providers
  }
`);
