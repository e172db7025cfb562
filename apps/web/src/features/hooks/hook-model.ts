import type { HooksQuery } from '../../gql/graphql.ts';

export type HookItem = HooksQuery['hooks'][number];
