// The Pothos schema builder every domain file adds its types and fields to.
import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from './context.ts';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
  };
}>({ defaultFieldNullability: false });

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
