// Assembles the schema: each domain file registers its fields on the builder when imported.
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './health.ts';
import './providers.ts';
import './user.ts';

builder.scalarType('JSON', {
  serialize: (value) => value,
  parseValue: (value) => value,
});

export const schema: GraphQLSchema = builder.toSchema();

/** The committed `schema.graphql` text. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
