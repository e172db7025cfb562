/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** GraphQL endpoint; default '/graphql' on the app's own origin. */
  readonly VITE_GRAPHQL_URL?: string;
  /** Footer links; defaults in lib/links.ts. */
  readonly VITE_FAQ_URL?: string;
  readonly VITE_SUPPORT_URL?: string;
  readonly VITE_PRIVACY_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
