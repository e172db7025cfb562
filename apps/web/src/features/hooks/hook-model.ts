import type { HooksQuery } from '../../gql/graphql.ts';

export type HookItem = HooksQuery['hooks'][number];

/** What a webhook row can ask its connector card to do. */
export interface HookActions {
  onRename: (hook: HookItem, name: string) => Promise<string | null>;
  onDelete: (hook: HookItem) => void;
  /** Opens the platform panel ("Connect TradingView"). */
  onConnect: (hook: HookItem) => void;
  onReactivate: (hook: HookItem) => void;
  /** A hook's risk-control settings were saved. */
  onChanged?: () => void;
}
