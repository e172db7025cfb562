import { graphql } from '../../gql/index.ts';

/** The installation's public origin and support address (public; no sign-in needed). */
export const SiteDocument = graphql(`
  query Site {
    site {
      publicUrl
      supportEmail
    }
  }
`);
