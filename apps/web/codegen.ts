import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed documents for the web app, generated from the server's committed schema.
// Run `npm run codegen -w @router/web` after the schema or a `graphql(...)` document changes.
const config: CodegenConfig = {
  schema: '../server/schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**', '!src/**/*.test.{ts,tsx}', '!src/test/**'],
  ignoreNoDocuments: true,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        importExtension: '.ts',
        enumsAsTypes: true,
        // Custom scalars the server may add are typed `unknown` until mapped here, never `any`.
        defaultScalarType: 'unknown',
      },
    },
  },
};

export default config;
