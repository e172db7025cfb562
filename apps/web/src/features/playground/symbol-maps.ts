// The symbol maps (risk control `symbolMap`, docs/RISK-CONTROLS.md) of the caller's webhooks on
// the playground's account: the playground previews without a webhook, so it shows what each
// webhook would place instead of the order's symbol. Mapped as the server maps: the symbol as
// written, else in capitals, else (with an exchange prefix) the symbol after it; once.
import { exchangePrefix, type OrderDraft } from '@router/orders';

export interface HookSymbolMap {
  hookKey: string;
  hookName: string;
  map: Array<[from: string, to: string]>;
}

interface HookRow {
  key: string;
  name: string;
  accountId: string;
  rules: string;
}

/** The maps of the account's webhooks that have one, in the hooks' order. */
export function symbolMapsOf(hooks: readonly HookRow[], accountId: string): HookSymbolMap[] {
  return hooks
    .filter((hook) => hook.accountId === accountId)
    .flatMap((hook) => {
      const map = mapOf(hook.rules);
      return map.length > 0 ? [{ hookKey: hook.key, hookName: hook.name, map }] : [];
    });
}

function mapOf(rules: string): Array<[string, string]> {
  try {
    const parsed: unknown = JSON.parse(rules);
    const map = (parsed as { symbolMap?: unknown } | null)?.symbolMap;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
    return Object.entries(map).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  } catch {
    return [];
  }
}

/** What the webhook places for the draft's symbol; undefined when its map leaves it as it is. */
export function mappedSymbol(map: HookSymbolMap['map'], draft: OrderDraft): string | undefined {
  const symbol = typeof draft.symbol === 'string' ? draft.symbol.trim() : '';
  if (!symbol) return undefined;
  const lookUp = (text: string) =>
    (map.find(([from]) => from === text) ?? map.find(([from]) => from.toUpperCase() === text.toUpperCase()))?.[1];
  let target = lookUp(symbol);
  // NASDAQ:AAPL by AAPL's key, on its exchange, unless the target names its own.
  const prefix = target === undefined ? exchangePrefix(symbol) : undefined;
  const bare = prefix === undefined ? undefined : lookUp(symbol.slice(symbol.indexOf(':') + 1).trim());
  if (bare !== undefined) target = exchangePrefix(bare) === undefined ? `${prefix}:${bare}` : bare;
  return target !== undefined && target !== symbol ? target : undefined;
}
