import type { HookItem } from './hook-model.ts';
import { HookRow } from './hook-row.tsx';

/** The webhooks of one account, or a line saying there are none yet. */
export function HookList({
  hooks,
  onRename,
  onDelete,
  onChanged,
}: {
  hooks: readonly HookItem[];
  onRename: (hook: HookItem, name: string) => Promise<string | null>;
  onDelete: (hook: HookItem) => void;
  /** A hook's settings were saved. */
  onChanged?: () => void;
}) {
  if (hooks.length === 0) {
    return <p className="small text-secondary mb-0">No webhooks yet: create one to send alerts to this account.</p>;
  }
  return (
    <ul className="list-group list-group-flush" aria-label="Webhooks">
      {hooks.map((hook) => (
        <HookRow key={hook.key} hook={hook} onRename={onRename} onDelete={onDelete} onChanged={onChanged} />
      ))}
    </ul>
  );
}
