/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** GraphQL endpoint; default '/graphql' on the app's own origin. */
  readonly VITE_GRAPHQL_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
