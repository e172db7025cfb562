// Assembles the schema: each domain file registers its fields on the builder when imported.
import { type GraphQLSchema, lexicographicSortSchema, printSchema, valueFromASTUntyped } from 'graphql';
import { builder } from './builder.ts';
import './account.ts';
import './action.ts';
import './admin.ts';
import './auth.ts';
import './auth-password.ts';
import './billing.ts';
import './connector.ts';
import './health.ts';
import './hook.ts';
import './live.ts';
import './notification.ts';
import './order-preview.ts';
import './paper.ts';
import './providers.ts';
import './queued-signal.ts';
import './referral.ts';
import './site.ts';
import './stats.ts';
import './user.ts';
import './user-app.ts';
import './user-passcode.ts';
import './user-token.ts';

builder.scalarType('JSON', {
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => valueFromASTUntyped(ast),
});

export const schema: GraphQLSchema = builder.toSchema();

/** The committed `schema.graphql` text. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
